import { describe, expect, it } from "vitest";
import { captureLogs } from "../../tests/support/log-capture.ts";
import { routeConsoleToLog } from "./console-to-log.ts";
import { runInRequestScope } from "./event-log.ts";

describe("routeConsoleToLog", () => {
  it("turns what libraries print into JSON log lines at the matching level, with the request id, and puts the console back", () => {
    const logs = captureLogs();
    const { info: before } = console;
    const restore = routeConsoleToLog(logs.logger);
    try {
      // The HTTP server's line for a client that went away, and React Router's for a URL it cannot decode.
      const { info } = console;
      runInRequestScope({ requestId: "req-7", clientIp: null, accountId: null }, () => info("The user aborted a request."));
      console.warn('The URL path "%s" could not be decoded', "/%E0");
    } finally {
      restore();
    }
    expect(logs.lines.map(({ level, msg, requestId, source }) => ({ level, msg, requestId, source }))).toEqual([
      { level: 30, msg: "The user aborted a request.", requestId: "req-7", source: "console" },
      { level: 40, msg: 'The URL path "/%E0" could not be decoded', requestId: undefined, source: "console" },
    ]);
    const { info: after } = console;
    expect(after).toBe(before);
  });
});
