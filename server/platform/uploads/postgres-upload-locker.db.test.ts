import { randomBytes } from "node:crypto";
import { MemoryLocker } from "@tus/server";
import type { Locker } from "@tus/utils";
import { sql } from "kysely";
import { pino } from "pino";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDatabase, dialectUnderTest, type TestDatabase } from "../../../tests/support/test-database.ts";
import { createPostgresUploadLocker, UPLOAD_LOCKS, type PostgresUploadLocker } from "./postgres-upload-locker.ts";

let database: TestDatabase;
let channel: string;
const lockers: PostgresUploadLocker[] = [];
/** On SQLite the shop runs as one copy: its requests share tus's in-process locker. */
const sharedMemoryLocker = new MemoryLocker();

beforeEach(async () => {
  database = await createTestDatabase();
  // A channel of this test's own, so that only the lockers it makes hear each other's requests.
  channel = `upload_release_test_${randomBytes(6).toString("hex")}`;
});
afterEach(async () => {
  await Promise.all(lockers.splice(0).map((locker) => locker.close()));
  await database.cleanup();
});

/** The locker a copy of the shop on the database under test uses (as server/compose.ts makes it). */
function copyLocker(): Locker {
  if (dialectUnderTest === "sqlite") return sharedMemoryLocker;
  const locker = createPostgresUploadLocker({ databaseUrl: database.postgresUrl!, logger: pino({ level: "silent" }), channel });
  lockers.push(locker);
  return locker;
}

it("a request for an upload held by another copy asks the holder to let go and gets the lock only after it has", async () => {
  const id = randomBytes(16).toString("hex");
  const [copyA, copyB] = [copyLocker(), copyLocker()];
  const events: string[] = [];
  let askedToRelease!: () => void;
  const asked = new Promise<void>((resolve) => (askedToRelease = resolve));
  const holder = copyA.newLock(id);
  await holder.lock(new AbortController().signal, () => {
    events.push("A asked to release");
    askedToRelease();
  });
  events.push("A holds");

  const waiter = copyB.newLock(id);
  const taken = waiter.lock(new AbortController().signal, () => undefined).then(() => events.push("B holds"));
  // The barrier: A lets go only once B's request has reached it, as tus's PATCH handler does when asked.
  await asked;
  events.push("A lets go");
  await holder.unlock();
  await taken;
  expect(events).toEqual(["A holds", "A asked to release", "A lets go", "B holds"]);

  // A third request, in A's copy, now waits for B in its turn.
  const again = copyA.newLock(id);
  const controller = new AbortController();
  const refused = again.lock(controller.signal, () => undefined);
  controller.abort();
  await expect(refused).rejects.toMatchObject({ status_code: 500 });
  await waiter.unlock();
  await again.lock(new AbortController().signal, () => undefined);
  await again.unlock();
});

// On SQLite the one copy's locks live in its process (tus's MemoryLocker): there is no connection to lose.
if (dialectUnderTest === "postgres") {
  it("frees a copy's locks when its locks' connection is cut, and that copy's next lock opens a new connection", async () => {
    let connectionLost!: () => void;
    const lost = new Promise<void>((resolve) => (connectionLost = resolve));
    const logger = pino({ level: "warn" }, { write: (line: string) => (line.includes("upload locks' connection lost") ? connectionLost() : undefined) });
    const copyA = createPostgresUploadLocker({ databaseUrl: database.postgresUrl!, logger, channel });
    lockers.push(copyA);
    const copyB = copyLocker();
    const [held, next] = [randomBytes(16).toString("hex"), randomBytes(16).toString("hex")];
    await copyA.newLock(held).lock(new AbortController().signal, () => undefined);

    // What a PostgreSQL restart or a cut network does to the session holding the advisory lock.
    const { rows } = await sql<{ ended: boolean }>`
      select pg_terminate_backend(pid) as ended from pg_locks
      where locktype = 'advisory' and objsubid = 2 and classid = ${UPLOAD_LOCKS}::bigint::oid`.execute(database.db);
    expect(rows).toEqual([{ ended: true }]);
    // The barrier: copy A has heard its connection end.
    await lost;

    // The lock ended with the session: another copy takes it; copy A's next lock is taken on a new connection.
    const taken = copyB.newLock(held);
    await taken.lock(new AbortController().signal, () => undefined);
    const again = copyA.newLock(next);
    await again.lock(new AbortController().signal, () => undefined);
    await again.unlock();
    await taken.unlock();
  });
}
