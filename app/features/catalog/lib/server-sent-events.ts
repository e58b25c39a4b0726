/** One dispatched Server-Sent Event: its type ("message" unless the server named one) and its data. */
export interface ServerSentEvent {
  type: string;
  data: string;
}

/**
 * The events of a text/event-stream body, as the HTML standard's EventSource parses them: lines end with CR, LF
 * or CRLF; `event:` names the type, `data:` lines join with newlines, a line starting with ':' is a comment (the
 * server's keep-alive), a blank line dispatches, and an event without data is dropped. `id` and `retry` are not
 * used by the shop and are ignored. Ends when the body does; rejects when reading it fails (the connection broke).
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let type = "";
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      for (;;) {
        const end = /\r\n|\r|\n/.exec(buffered);
        // A lone CR at the end may be the first half of a CRLF: wait for the next chunk to tell.
        if (!end || (end[0] === "\r" && end.index === buffered.length - 1)) break;
        const line = buffered.slice(0, end.index);
        buffered = buffered.slice(end.index + end[0].length);
        if (line === "") {
          if (data.length) yield { type: type || "message", data: data.join("\n") };
          type = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const fieldValue = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") type = fieldValue;
        else if (field === "data") data.push(fieldValue);
      }
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}
