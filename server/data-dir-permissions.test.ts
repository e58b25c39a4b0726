import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync, lstatSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadAuthSecret } from "./modules/accounts/index.ts";
import { secureDataDir } from "./platform/data-dir/data-dir-permissions.ts";
import { openDatabase } from "./platform/db/client.ts";
import { createMailer } from "./platform/mail/mailer.ts";
import { createMediaService } from "./platform/media/media.ts";

// The data folder is its user's alone, since it holds the auth secret and the database (decision 015). Run under the test process's umask
// (usually 022), so what is proved is the modes the shop sets, not a umask.

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "plant-shop-perms-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const modeOf = (file: string) => (lstatSync(file).mode & 0o777).toString(8);

describe("a new data folder", () => {
  it("is 0700, and the database with its WAL files, the auth secret, e-mails and pictures in it are 0600", async () => {
    const dataDir = path.join(root, "data");
    expect(await secureDataDir(dataDir)).toEqual({ tightened: [], failed: [] });
    expect(modeOf(dataDir)).toBe("700");
    expect(modeOf(path.join(dataDir, "media"))).toBe("700");

    const database = openDatabase({ sqliteFile: path.join(dataDir, "shop.db") });
    try {
      await database.db.schema.createTable("notes").addColumn("text", "text").execute();
      await database.db.insertInto("notes" as never).values({ text: "hello" } as never).execute();
      for (const name of ["shop.db", "shop.db-wal", "shop.db-shm"]) expect(modeOf(path.join(dataDir, name)), name).toBe("600");
    } finally {
      await database.destroy();
    }

    await loadAuthSecret(undefined, dataDir);
    expect(modeOf(path.join(dataDir, "auth-secret"))).toBe("600");

    const outboxDir = path.join(dataDir, "outbox");
    await createMailer({ from: "shop@example.com", outboxDir }).send({
      to: "asha@example.com",
      subject: "Hello",
      text: "Hello",
      html: "<p>Hello</p>",
    });
    expect(modeOf(outboxDir)).toBe("700");
    const [mail] = readdirSync(outboxDir);
    expect(modeOf(path.join(outboxDir, mail!))).toBe("600");

    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#25632e" } }).png().toBuffer();
    const { url } = await createMediaService({ mediaDir: path.join(dataDir, "media") }).saveSquareImage(png);
    expect(modeOf(path.join(dataDir, "media", path.basename(url)))).toBe("600");
  });
});

describe("an existing data folder readable by others", () => {
  function looseFolder() {
    const dataDir = path.join(root, "data");
    mkdirSync(path.join(dataDir, "media", "old"), { recursive: true });
    mkdirSync(path.join(dataDir, "outbox"));
    const files = ["shop.db", "shop.db-wal", "shop.db-shm", "auth-secret", "media/a.webp", "media/old/b.webp", "outbox/m.eml", "notes.txt"];
    for (const file of files) writeFileSync(path.join(dataDir, file), "x", { mode: 0o644 });
    for (const folder of ["", "media", "media/old", "outbox"]) chmodSync(path.join(dataDir, folder), 0o755);
    chmodSync(path.join(dataDir, "notes.txt"), 0o644);
    // A link to something that is not the shop's: left as it is.
    writeFileSync(path.join(root, "elsewhere.txt"), "x", { mode: 0o644 });
    chmodSync(path.join(root, "elsewhere.txt"), 0o644);
    symlinkSync(path.join(root, "elsewhere.txt"), path.join(dataDir, "media", "link.webp"));
    return dataDir;
  }

  it("is tightened at start: the folder and the shop's folders 0700, the shop's files 0600; the rest left alone, and said", async () => {
    const dataDir = looseFolder();
    const report = await secureDataDir(dataDir);

    for (const folder of ["", "media", "media/old", "outbox"]) expect(modeOf(path.join(dataDir, folder)), folder || "the data folder").toBe("700");
    for (const file of ["shop.db", "shop.db-wal", "shop.db-shm", "auth-secret", "media/a.webp", "media/old/b.webp", "outbox/m.eml"]) {
      expect(modeOf(path.join(dataDir, file)), file).toBe("600");
    }
    expect(modeOf(path.join(dataDir, "notes.txt")), "a file the shop did not write").toBe("644");
    expect(modeOf(path.join(root, "elsewhere.txt")), "what a link points to").toBe("644");
    expect(report.failed).toEqual([]);
    expect(report.tightened).toHaveLength(11);
    expect(report.tightened).toContain(path.join(dataDir, "shop.db"));

    expect(await secureDataDir(dataDir), "a second start finds nothing to do").toEqual({ tightened: [], failed: [] });
  });

  it("keeps what is tighter already", async () => {
    const dataDir = looseFolder();
    chmodSync(path.join(dataDir, "auth-secret"), 0o400);
    await secureDataDir(dataDir);
    expect(modeOf(path.join(dataDir, "auth-secret"))).toBe("400");
    expect(statSync(path.join(dataDir, "auth-secret")).isFile()).toBe(true);
  });
});
