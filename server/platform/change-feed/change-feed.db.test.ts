import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, dialectUnderTest, type TestDatabase } from "../../../tests/support/test-database.ts";
import { inWriteTransaction } from "../db/write-transaction.ts";
import { createLocalChangeFeed, type Change, type ChangeFeed } from "./change-feed.ts";
import { createPostgresChangeFeed } from "./postgres-change-feed.ts";

const logger = pino({ level: "silent" });

let database: TestDatabase;
let channel: string;
const feeds: ChangeFeed[] = [];

beforeEach(async () => {
  database = await createTestDatabase();
  // A channel of this test's own, so that only the feeds the test makes can hear what it publishes.
  channel = `changes_test_${randomBytes(6).toString("hex")}`;
});
afterEach(async () => {
  await Promise.all(feeds.splice(0).map((feed) => feed.close()));
  await database.cleanup();
});

/** The feed a server process on the database under test makes (as server/compose.ts does). */
async function processFeed(): Promise<ChangeFeed> {
  const feed =
    dialectUnderTest === "postgres"
      ? await createPostgresChangeFeed({ databaseUrl: database.postgresUrl!, db: database.db, logger, channel, reconnectDelaysMs: [50] })
      : createLocalChangeFeed();
  feeds.push(feed);
  return feed;
}

function collect(feed: ChangeFeed) {
  const heard: Change[] = [];
  feed.subscribe((change) => heard.push(change));
  return heard;
}

/** Waits until `check` passes (for what arrives from another connection), or fails with its last error. */
async function eventually(check: () => void, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const productChange = (productId = randomUUID()): Change => ({ type: "product", productId, aspects: ["stock"] });

describe("the change feed", () => {
  it("delivers a change published in a write transaction only once it commits", async () => {
    const feed = await processFeed();
    const heard = collect(feed);
    const change = productChange();
    await inWriteTransaction(database, async (trx) => {
      feed.publish(trx, change);
      await trx.selectFrom("categories").select("id").execute();
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual([change]);
  });

  it("never delivers a change published in a transaction that rolls back", async () => {
    const feed = await processFeed();
    const heard = collect(feed);
    await expect(
      inWriteTransaction(database, async (trx) => {
        feed.publish(trx, productChange());
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    // A change published after it arrives at once (its own process's changes never wait for PostgreSQL), and alone.
    const later = productChange();
    feed.publish(database.db, later);
    expect(heard).toEqual([later]);
  });

  it("stops calling a listener once it unsubscribes, and keeps calling the others when one throws", async () => {
    const feed = await processFeed();
    const first: Change[] = [];
    const stop = feed.subscribe((change) => first.push(change));
    feed.subscribe(() => {
      throw new Error("a broken listener");
    });
    const heard = collect(feed);
    const change = productChange();
    feed.publish(database.db, change);
    stop();
    feed.publish(database.db, productChange());
    expect(first).toEqual([change]);
    expect(heard).toHaveLength(2);
  });
});

// Only PostgreSQL has other processes to reach (on SQLite one process owns the database): declared there alone.
if (dialectUnderTest === "postgres") describe("the change feed across server processes (PostgreSQL)", () => {
  it("delivers a change published by one process to every process, each exactly once, its own included", async () => {
    const [one, two, three] = [await processFeed(), await processFeed(), await processFeed()];
    const [heardByOne, heardByTwo, heardByThree] = [collect(one), collect(two), collect(three)];
    const fromOne = productChange();
    const fromTwo = productChange();
    await inWriteTransaction(database, async (trx) => one.publish(trx, fromOne));
    two.publish(database.db, fromTwo);
    // Its own change reaches a process at once, without waiting for the round trip through PostgreSQL.
    expect(heardByOne).toEqual([fromOne]);
    await eventually(() => {
      expect(heardByOne).toEqual([fromOne, fromTwo]);
      expect(heardByTwo).toEqual(expect.arrayContaining([fromOne, fromTwo]));
      expect(heardByThree).toEqual(expect.arrayContaining([fromOne, fromTwo]));
    });
    // And nothing arrives twice. PostgreSQL delivers notifications in the order their transactions committed, so
    // once each process has heard, through PostgreSQL, a change committed after these (another process's: its
    // own it hears at once), any second copy of them would have arrived already.
    const [lastFromOne, lastFromTwo] = [productChange(), productChange()];
    await inWriteTransaction(database, async (trx) => one.publish(trx, lastFromOne));
    await inWriteTransaction(database, async (trx) => two.publish(trx, lastFromTwo));
    await eventually(() => {
      expect(heardByOne).toContainEqual(lastFromTwo);
      expect(heardByTwo).toContainEqual(lastFromOne);
      expect(heardByThree).toEqual(expect.arrayContaining([lastFromOne, lastFromTwo]));
    });
    expect([heardByOne.length, heardByTwo.length, heardByThree.length]).toEqual([4, 4, 4]);
  });

  it("reconnects when its connection is killed, tells its listeners to re-read, and hears other processes again", async () => {
    const [listener, publisher] = [await processFeed(), await processFeed()];
    const heard = collect(listener);
    const admin = new pg.Client({ connectionString: database.postgresUrl });
    await admin.connect();
    try {
      // Every LISTEN connection on this test's channel (both feeds'); the listener's drop is what is tested.
      const { rowCount } = await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where query = $1", [`listen "${channel}"`]);
      expect(rowCount).toBe(2);
    } finally {
      await admin.end();
    }
    await eventually(() => expect(heard).toContainEqual({ type: "resync" }));
    const after = productChange();
    publisher.publish(database.db, after);
    await eventually(() => expect(heard).toContainEqual(after));
  });

  it("drops payloads on its channel that carry no change (not JSON objects, changes without a string type) and delivers the changes beside them", async () => {
    const [listener, publisher] = [await processFeed(), await processFeed()];
    const heard = collect(listener);
    const legacy = productChange();
    const beside = productChange();
    const foreign = [
      "null",
      "42",
      '"some text"',
      "not json",
      JSON.stringify({ from: "another-process", changes: "not a list" }),
      JSON.stringify({ from: "another-process", changes: [null, 7, "product", { type: 3 }, { productId: "p" }, beside] }),
      // The form processes sent before changes were batched: one change alone.
      JSON.stringify({ from: "another-process", change: legacy }),
    ];
    const sender = new pg.Client({ connectionString: database.postgresUrl });
    await sender.connect();
    try {
      for (const payload of foreign) await sender.query("select pg_notify($1, $2)", [channel, payload]);
    } finally {
      await sender.end();
    }
    // NOTIFYs arrive in commit order: once this change is heard, every payload above has been read.
    const last = productChange();
    publisher.publish(database.db, last);
    await eventually(() => expect(heard).toContainEqual(last));
    expect(heard).toEqual([beside, legacy, last]);
  });

  it("refuses to start when it cannot listen, rather than serving pages that never update", async () => {
    const unreachable = "postgres://postgres@127.0.0.1:1/nowhere";
    await expect(createPostgresChangeFeed({ databaseUrl: unreachable, db: database.db, logger, channel })).rejects.toThrow();
  });
});
