import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import { openDatabase, type Database } from "../db/client.ts";
import { createTestDatabase, dialectUnderTest, type TestDatabase } from "../../../tests/support/test-database.ts";
import { createUploadQuota, UPLOAD_HOLD_SETTLE_MS, type HeldUpload } from "./upload-quota.ts";

// The quotas' tally in the database: what two server copies on one database take together, and how an expiry
// sweep's reading of the storage corrects it. The storage's listing is given as a list (the copies' bucket is
// tests/api/uploads-in-bucket.test.ts's).

const MiB = 1024 * 1024;
const settings = { perAccountBytes: 20 * MiB, totalBytes: 40 * MiB, minFreeDiskBytes: 0 };

let database: TestDatabase;
/** On PostgreSQL, the second copy's own pool on the same database; on SQLite the one copy's connection. */
let secondCopy: Database | undefined;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await secondCopy?.destroy();
  secondCopy = undefined;
  await database.cleanup();
});

function otherCopyDatabase(): Pick<Database, "db" | "dialect"> {
  if (!database.postgresUrl) return database;
  secondCopy = openDatabase({ databaseUrl: database.postgresUrl });
  return secondCopy;
}

function quotaOn(db: Pick<Database, "db" | "dialect">, options: { listing?: HeldUpload[]; now?: () => number } = {}) {
  return createUploadQuota({
    database: db,
    settings,
    freeDiskSpace: () => Promise.resolve(Number.MAX_SAFE_INTEGER),
    listHeld: () => Promise.resolve(options.listing ?? []),
    ...(options.now ? { now: options.now } : {}),
  });
}

/** How many of `attempts` were taken, and the messages of the refused ones. */
async function outcomes(attempts: Promise<unknown>[]) {
  const settled = await Promise.allSettled(attempts);
  return {
    taken: settled.filter((outcome) => outcome.status === "fulfilled").length,
    refusals: settled.flatMap((outcome) => (outcome.status === "rejected" ? [(outcome.reason as Error).message] : [])),
  };
}

describe(`the upload quotas shared by server copies (${dialectUnderTest})`, () => {
  it("gives one account's last room once across two copies: of eight 6 MB reservations made on both at once, three are taken", async () => {
    const copies = [quotaOn(database), quotaOn(otherCopyDatabase())];
    const { taken, refusals } = await outcomes(Array.from({ length: 8 }, (_, i) => copies[i % 2]!.reserve("owner", 6 * MiB)));
    expect(taken).toBe(3);
    expect(refusals).toEqual(Array(5).fill(messages.uploads.accountQuotaReached(20)));
  });

  it("gives the shop's last room once across two copies: of eight accounts' 6 MB reservations at once, six fit in 40 MB", async () => {
    const copies = [quotaOn(database), quotaOn(otherCopyDatabase())];
    const { taken, refusals } = await outcomes(Array.from({ length: 8 }, (_, i) => copies[i % 2]!.reserve(`owner-${i}`, 6 * MiB)));
    expect(taken).toBe(6);
    expect(refusals).toEqual(Array(2).fill(messages.uploads.shopQuotaReached));
  });

  it("counts what one copy kept, released or forgot on the other copy too", async () => {
    const [first, second] = [quotaOn(database), quotaOn(otherCopyDatabase())];
    const kept = await first.reserve("owner", 6 * MiB);
    await kept.keep("upload-kept");
    const released = await first.reserve("owner", 6 * MiB);
    await first.reserve("owner", 6 * MiB);
    await expect(second.reserve("owner", 6 * MiB)).rejects.toMatchObject({ status: 413 });
    await released.release();
    await second.reserve("owner", 6 * MiB);
    await expect(second.reserve("owner", 3 * MiB)).rejects.toMatchObject({ status: 413 });
    await first.forget("upload-kept");
    await second.reserve("owner", 8 * MiB);
    await expect(first.reserve("owner", 1)).rejects.toMatchObject({ status: 413 });
  });
});

describe(`the expiry sweep's reading of the storage (${dialectUnderTest})`, () => {
  it("counts uploads in the storage the table never held, before a copy's first check", async () => {
    const listing = [{ id: "made-before", uploader: "owner", bytes: 16 * MiB }];
    const quota = quotaOn(database, { listing });
    await expect(quota.reserve("owner", 6 * MiB)).rejects.toMatchObject({ message: messages.uploads.accountQuotaReached(20) });
    await quota.reserve("owner", 4 * MiB);
  });

  it("forgets an upload the storage no longer lists once it is a minute old, not before, and a creation its process never finished likewise", async () => {
    let now = 1_000_000;
    const listing: HeldUpload[] = [];
    const quota = quotaOn(database, { listing, now: () => now });
    const kept = await quota.reserve("owner", 8 * MiB);
    await kept.keep("removed-by-hand");
    await quota.reserve("owner", 8 * MiB); // never kept nor released: its process died mid-creation
    await expect(quota.reserve("owner", 6 * MiB)).rejects.toMatchObject({ status: 413 });

    await quota.resync(now + UPLOAD_HOLD_SETTLE_MS);
    await expect(quota.reserve("owner", 6 * MiB)).rejects.toMatchObject({ status: 413 });

    now += UPLOAD_HOLD_SETTLE_MS + 1;
    await quota.resync(now);
    await quota.reserve("owner", 20 * MiB);
  });

  it("keeps counting an upload the storage still lists, however old its row", async () => {
    let now = 1_000_000;
    const listing: HeldUpload[] = [];
    const quota = quotaOn(database, { listing, now: () => now });
    const kept = await quota.reserve("owner", 12 * MiB);
    await kept.keep("still-there");
    listing.push({ id: "still-there", uploader: "owner", bytes: 12 * MiB });
    now += 24 * 60 * 60 * 1000;
    await quota.resync(now);
    await expect(quota.reserve("owner", 12 * MiB)).rejects.toMatchObject({ status: 413 });
    await quota.reserve("owner", 8 * MiB);
  });
});
