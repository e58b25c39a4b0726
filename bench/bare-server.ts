import { readFileSync } from "node:fs";
import http from "node:http";

// The baseline: plain node:http answering each path with the bytes the shop answered it with.
interface Recorded {
  status: number;
  contentType: string;
  /** Set when the shop's bytes were recorded compressed (the signed-in rows with a browser's Accept-Encoding). */
  contentEncoding?: string;
  body: string;
}
const [file, port] = process.argv.slice(2);
const recorded: Record<string, Recorded> = JSON.parse(readFileSync(file!, "utf8"));
const bodies = new Map(Object.entries(recorded).map(([path, r]) => [path, { ...r, bytes: Buffer.from(r.body, "base64") }]));

http
  .createServer((req, res) => {
    const found = bodies.get(req.url ?? "");
    if (!found) {
      res.writeHead(404).end();
      return;
    }
    const headers: Record<string, string | number> = { "Content-Type": found.contentType, "Content-Length": found.bytes.length };
    if (found.contentEncoding) headers["Content-Encoding"] = found.contentEncoding;
    res.writeHead(found.status, headers).end(found.bytes);
  })
  .listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
