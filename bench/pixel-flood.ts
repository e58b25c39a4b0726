// Peak memory while a decompression bomb is refused (docs/decisions/022): a fresh process uploads a 100,000 × 100,000 PNG
// header (about 70 bytes) through the tus handler and asks the media service for images from it.
// Run: npx tsx bench/pixel-flood.ts
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createMediaService } from "../server/platform/media/media.ts";
import { uploadsAlone } from "./uploads-alone.ts";
import { pixelFloodPng } from "../tests/support/pixel-flood-png.ts";
import { descendants } from "../tests/support/shop-process.ts";
import { residentMb } from "./proc.ts";

const owner = { id: "bench", name: "Bench", email: "bench@example.com", username: "bench", image: null, emailVerified: true, isAdmin: true };
const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-flood-"));
const { uploads, close } = await uploadsAlone(dataDir);
const media = createMediaService({ mediaDir: path.join(dataDir, "media"), uploads });

const png = await pixelFloodPng(100_000, 100_000);

const tus = { "Tus-Resumable": "1.0.0" };
const created = await uploads.handle(
  new Request("http://127.0.0.1/api/uploads", {
    method: "POST",
    headers: { ...tus, "Upload-Length": String(png.byteLength), "Upload-Metadata": `purpose ${btoa("product")}` },
  }),
  owner,
);
const location = created.headers.get("Location")!;
await uploads.handle(
  new Request(`http://127.0.0.1${location}`, {
    method: "PATCH",
    headers: { ...tus, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
    body: new Uint8Array(png),
  }),
  owner,
);
const before = process.resourceUsage().maxRSS;
const started = performance.now();
const outcome = await media.imageFromUpload(location.split("/").pop()!, owner.id).then(
  () => "accepted (wrong!)",
  (error: Error) => `refused: ${error.message}`,
);
const after = process.resourceUsage().maxRSS;
console.log(`${png.byteLength}-byte PNG declaring 100000x100000: ${outcome}`);
console.log(`peak RSS before ${(before / 1024).toFixed(1)} MB, after ${(after / 1024).toFixed(1)} MB, in ${(performance.now() - started).toFixed(0)} ms`);
// The picture is decoded in a decoder process below this one: its peak too.
for (const pid of descendants(process.pid)) console.log(`decoder process ${pid}: peak RSS ${residentMb(pid, "VmHWM").toFixed(1)} MB`);
await close();
rmSync(dataDir, { recursive: true, force: true });
