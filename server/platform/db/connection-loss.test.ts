import { describe, expect, it } from "vitest";
import pino from "pino";
import { DatabaseUnavailableError, isConnectionLoss, outageReporter } from "./connection-loss.ts";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isConnectionLoss", () => {
  it("is true for PostgreSQL's codes of a connection it ended or refused, and class 08", () => {
    for (const code of ["57P01", "57P02", "57P03", "57P05", "53300", "08000", "08003", "08006", "08001"]) expect(isConnectionLoss(withCode(code)), code).toBe(true);
  });

  it("is true for a socket refused, reset or timed out, and node-postgres's words for a connection that ended", () => {
    for (const code of ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH"]) expect(isConnectionLoss(withCode(code)), code).toBe(true);
    expect(isConnectionLoss(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionLoss(new Error("Connection terminated"))).toBe(true);
    expect(isConnectionLoss(new Error("Client has encountered a connection error and is not queryable"))).toBe(true);
    expect(isConnectionLoss(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isConnectionLoss(new DatabaseUnavailableError(new Error("gone")))).toBe(true);
  });

  it("is false for ordinary database errors and anything else", () => {
    for (const code of ["23505", "23503", "42P01", "42601", "40001", "40P01", "22P02", "0A000", "SQLITE_BUSY", "SQLITE_CONSTRAINT_UNIQUE"]) {
      expect(isConnectionLoss(withCode(code)), code).toBe(false);
    }
    expect(isConnectionLoss(new Error("relation \"x\" does not exist"))).toBe(false);
    expect(isConnectionLoss(new Error("the connection was terminated by the user"))).toBe(false);
    expect(isConnectionLoss(null)).toBe(false);
    expect(isConnectionLoss("Connection terminated")).toBe(false);
  });
});

describe("DatabaseUnavailableError", () => {
  it("is a 503 with a message for people, a Retry-After, and what node-postgres said as its cause", () => {
    const cause = withCode("57P01", "terminating connection due to administrator command");
    const error = new DatabaseUnavailableError(cause);
    expect(error.status).toBe(503);
    expect(error.message).toBe("The shop is briefly unavailable. Please try again in a moment.");
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(error.cause).toBe(cause);
  });
});

describe("outageReporter", () => {
  function recorded() {
    const lines: { level: number; msg: string; failures?: number }[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) });
    return { logger, lines };
  }

  it("logs an outage's first failure, then at most one line every 30 s with the count meanwhile, and its end once", () => {
    const { logger, lines } = recorded();
    let clock = 0;
    const outage = outageReporter(logger, () => clock);
    for (let i = 0; i < 100; i++) outage.failed(new Error("Connection terminated unexpectedly"));
    expect(lines.map((line) => line.msg)).toEqual(["database unreachable: requests that need it answer 503 until it is back"]);
    clock = 30_000;
    outage.failed(new Error("Connection terminated unexpectedly"));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ msg: "database still unreachable", failures: 100 });
    outage.succeeded();
    outage.succeeded();
    expect(lines.map((line) => line.msg).slice(2)).toEqual(["database reachable again"]);
    expect(lines[0]!.level).toBe(40);
  });
});
