import { describe, expect, it } from "vitest";
import { readServerSentEvents, type ServerSentEvent } from "./server-sent-events.ts";

/** A body that arrives in exactly these chunks. */
function body(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(stream)) events.push(event);
  return events;
}

describe("readServerSentEvents", () => {
  it("reads the shop's ready and change events, skipping keep-alive comments, whatever the chunks' boundaries", async () => {
    const text = 'event: ready\ndata: {"updatedAt":"2026-01-01"}\n\n: keep-alive\n\nevent: change\ndata: {"aspects":["stock"]}\n\n';
    const expected = [
      { type: "ready", data: '{"updatedAt":"2026-01-01"}' },
      { type: "change", data: '{"aspects":["stock"]}' },
    ];
    expect(await all(body(text))).toEqual(expected);
    expect(await all(body(...text.split("")))).toEqual(expected);
  });

  it("ends lines at CR, LF or CRLF (a CRLF split across chunks is one line end), joins data lines and names an untyped event 'message'", async () => {
    expect(await all(body("data: one\r", "\ndata:two\r\revent: change\rdata\n\n"))).toEqual([
      { type: "message", data: "one\ntwo" },
      { type: "change", data: "" },
    ]);
  });

  it("drops an event without data and an event the stream ended before its blank line", async () => {
    expect(await all(body("event: ready\n\nevent: change\ndata: x"))).toEqual([]);
  });
});
