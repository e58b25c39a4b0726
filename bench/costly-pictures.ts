import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import sharp from "sharp";
import { createMediaService } from "../server/platform/media/media.ts";
import { BLUR_TEXT_SVG, LONG_LINES_SVG, MORPHOLOGY_SVG, NESTED_USE_SVG } from "../tests/support/costly-drawings.ts";
import { pixelFloodPng } from "../tests/support/pixel-flood-png.ts";
import { descendants } from "../tests/support/shop-process.ts";
import { treeCpuMs } from "./proc.ts";
import { uploadsAlone } from "./uploads-alone.ts";

// The costliest pictures an outside audit found, each sent the two ways a picture reaches the media service: as a
// shopper's profile picture (saveSquareImage) and as an admin's category image (imageFromUpload, after a tus
// upload). Every (file, way) runs in a fresh process, first warmed with one ordinary picture the same way, so that
// loading sharp and starting decoders is not counted. Printed: the answer, the wall time of the call, and the CPU
// the process and every process below it (decoders) spent on it, from /proc. A run still going after CAP seconds
// is killed and reported as such (the original code spent minutes on some). Nothing here asserts a speed.
//   npx tsx bench/costly-pictures.ts            every file both ways
//   BENCH_CAP_SECONDS=30 (default); BENCH_ONLY=<part of a file's name> runs only the files so named
const CAP_MS = Number(process.env.BENCH_CAP_SECONDS ?? 30) * 1000;

/** A 25-megapixel photo-like JPEG (smooth noise, so that it compresses like a photo rather than a flat colour). */
async function largeJpeg(): Promise<Buffer> {
  const noise = await sharp({ create: { width: 600, height: 417, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 60 } } })
    .png()
    .toBuffer();
  return sharp(noise).resize(6000, 4167).jpeg({ quality: 85 }).toBuffer();
}

const FILES: Record<string, () => Promise<Buffer> | Buffer> = {
  "feMorphology SVG": () => Buffer.from(MORPHOLOGY_SVG),
  "blur text SVG": () => Buffer.from(BLUR_TEXT_SVG),
  "nested <use> SVG": () => Buffer.from(NESTED_USE_SVG),
  "pixel-flood PNG (100000x100000)": () => pixelFloodPng(100_000, 100_000),
  "25-megapixel JPEG (6000x4167)": largeJpeg,
  "path of 30,000 long lines SVG": () => Buffer.from(LONG_LINES_SVG),
};
const WAYS = ["profile", "category"] as const;
type Way = (typeof WAYS)[number];

/** One (file, way) in this process: prints one JSON line. */
async function runOne(fileName: string, way: Way) {
  const data = await FILES[fileName]!();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-costly-"));
  const { uploads, close } = await uploadsAlone(dataDir);
  const media = createMediaService({ mediaDir: path.join(dataDir, "media"), uploads });
  const owner = { id: "bench", name: "Bench", email: "bench@example.com", username: "bench", image: null, emailVerified: true, isAdmin: true };
  const tus = { "Tus-Resumable": "1.0.0" };
  const uploaded = async (bytes: Buffer) => {
    const created = await uploads.handle(
      new Request("http://127.0.0.1/api/uploads", { method: "POST", headers: { ...tus, "Upload-Length": String(bytes.byteLength), "Upload-Metadata": `purpose ${btoa("category")}` } }),
      owner,
    );
    const location = created.headers.get("Location")!;
    await uploads.handle(
      new Request(`http://127.0.0.1${location}`, { method: "PATCH", headers: { ...tus, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" }, body: new Uint8Array(bytes) }),
      owner,
    );
    return location.split("/").pop()!;
  };
  const send = async (bytes: Buffer) => (way === "profile" ? media.saveSquareImage(bytes) : media.imageFromUpload(await uploaded(bytes), owner.id));
  await send(await sharp({ create: { width: 640, height: 480, channels: 3, background: "#2d6a4f" } }).png().toBuffer());
  const id = way === "category" ? await uploaded(data) : undefined;
  const cpuBefore = treeCpuMs(process.pid);
  const started = performance.now();
  const outcome = await (id ? media.imageFromUpload(id, owner.id) : media.saveSquareImage(data)).then(
    () => "accepted",
    (error: Error & { status?: number }) => `${error.status ?? "error"} ${error.message}`,
  );
  const wallMs = performance.now() - started;
  const cpu = treeCpuMs(process.pid) - cpuBefore;
  console.log(JSON.stringify({ bytes: data.byteLength, outcome, wallMs, cpuMs: cpu }));
  await close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

async function runCapped(fileName: string, way: Way) {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, "--one", fileName, way], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let lastCpu = 0;
  let killed = false;
  const started = performance.now();
  const poll = setInterval(() => {
    try {
      lastCpu = treeCpuMs(child.pid!);
    } catch {
      // it ended meanwhile
    }
    if (performance.now() - started > CAP_MS + 20_000) {
      killed = true;
      for (const pid of [child.pid!, ...descendants(child.pid!)].reverse()) process.kill(pid, "SIGKILL");
    }
  }, 1000);
  await new Promise((resolve) => child.once("exit", resolve));
  clearInterval(poll);
  const line = output.trim().split("\n").at(-1) ?? "";
  if (killed || !line.startsWith("{")) return `killed after ${Math.round((performance.now() - started) / 1000)} s (set-up included), at least ${(lastCpu / 1000).toFixed(1)} s CPU`;
  const r = JSON.parse(line) as { bytes: number; outcome: string; wallMs: number; cpuMs: number };
  return `${r.bytes} B: ${r.outcome.slice(0, 90)} — answered in ${(r.wallMs / 1000).toFixed(2)} s, CPU ${(r.cpuMs / 1000).toFixed(2)} s`;
}

if (process.argv[2] === "--one") {
  const fileName = process.argv[3]!;
  const way = process.argv[4] as Way;
  // The cap: a call still running is answered as over it (the original code cannot stop a decode).
  setTimeout(() => {
    console.log(JSON.stringify({ bytes: 0, outcome: `still running after ${CAP_MS / 1000} s`, wallMs: CAP_MS, cpuMs: treeCpuMs(process.pid) }));
    process.exit(0);
  }, CAP_MS).unref();
  await runOne(fileName, way);
} else {
  const { execFileSync } = await import("node:child_process");
  console.log(`commit ${execFileSync("git", ["rev-parse", "--short", "HEAD"]).toString().trim()}; cap ${CAP_MS / 1000} s per call`);
  for (const fileName of Object.keys(FILES).filter((name) => name.includes(process.env.BENCH_ONLY ?? ""))) {
    for (const way of WAYS) console.log(`${`${fileName}, as ${way === "profile" ? "a profile picture" : "a category image"}`.padEnd(58)} ${await runCapped(fileName, way)}`);
  }
}
