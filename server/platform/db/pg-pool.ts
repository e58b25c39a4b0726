import type Pg from "pg";
import type { Logger } from "pino";
import { DatabaseUnavailableError, isConnectionLoss, outageReporter } from "./connection-loss.ts";
import { loadPg } from "./load-pg.ts";
import { withPreparedStatements } from "./pg-statements.ts";

export interface PgPoolOptions {
  connectionString: string;
  max: number;
  /** PostgreSQL schema to work in (tests give each file its own). */
  pgSchema?: string | undefined;
  /** How long a request waits for a connection (a free one, or a new one opened) before it is refused with 503. */
  connectionTimeoutMs: number;
  logger?: Logger | undefined;
}

type Query = (...args: unknown[]) => unknown;

/**
 * The shop's pool of PostgreSQL connections, made to survive the database going away (docs/decisions/032):
 *
 * - node-postgres emits a connection's loss as an 'error' event, on the pool for an idle connection and on the
 *   client for one in use; an 'error' event nobody listens to ends the process. Both are listened to here, so a
 *   restart, a failover or pg_terminate_backend costs the requests that were using those connections, not the shop.
 * - A connection that failed is never handed out again: the pool drops a client that is no longer queryable when
 *   it is released, and drops an idle one when it fails.
 * - Failing to get a connection, and losing one under a query, become DatabaseUnavailableError (503 with
 *   Retry-After); every other database error is passed on as it was.
 * - Getting a connection is bounded (connectionTimeoutMs), so while the database cannot be reached requests are
 *   refused in seconds rather than hanging until the operating system gives up on the socket.
 */
export function createPgPool({ connectionString, max, pgSchema, connectionTimeoutMs, logger }: PgPoolOptions): Pg.Pool {
  const pool = withPreparedStatements(
    new (loadPg().Pool)({
      connectionString,
      max,
      connectionTimeoutMillis: connectionTimeoutMs,
      // Idle connections to a database that vanished without a word (a failover's old primary) are found out.
      keepAlive: true,
      ...(pgSchema ? { options: `-c search_path=${pgSchema}` } : {}),
    }),
  );
  const outage = outageReporter(logger);

  pool.on("error", (error) => {
    // An idle connection ended by the server; the pool has dropped it and opens another when one is needed.
    logger?.warn({ err: error }, "database: an idle connection was closed by the server");
  });
  // Registered after the prepared statements' own 'connect' listener, so this wraps their query too.
  pool.on("connect", (client) => {
    // For a connection in use: the query running on it fails by itself, and the pool drops the client when it
    // comes back. Without a listener the event would end the process.
    client.on("error", () => undefined);
    const query = client.query.bind(client) as Query;
    const run: Query = (...args) => {
      const result = query(...args);
      if (!(result instanceof Promise)) return result;
      return result.catch((error: unknown) => {
        if (!isConnectionLoss(error)) throw error;
        outage.failed(error);
        throw new DatabaseUnavailableError(error);
      });
    };
    (client as unknown as { query: Query }).query = run;
  });

  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args) => {
    // Kysely asks for a connection as a promise; the callback form (unused by the shop) is left as it was.
    if (args.length) return connect(...args);
    return (connect() as Promise<Pg.PoolClient>).then(
      (client) => {
        outage.succeeded();
        return client;
      },
      (error: unknown) => {
        // Whatever stops a connection from being opened (refused, a timeout, the database not accepting
        // connections, the server starting up) leaves this request without a database: the same outage.
        outage.failed(error);
        throw new DatabaseUnavailableError(error);
      },
    );
  };
  return pool;
}
