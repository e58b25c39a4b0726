import { stringify } from "csv-stringify/sync";
import { FORMULA_START } from "#common/admin/catalog-csv.ts";

/**
 * A spreadsheet program runs a cell that starts with = + - @ (or a tab or carriage return that hides one) as a
 * formula, so a product name or an address a shopper typed could call out to another site or run a command on the
 * accountant's computer when the export is opened. Such a cell gets a leading apostrophe, which spreadsheets show as text.
 */
export function safeCell(value: string | number | null): string {
  if (value === null) return "";
  const text = String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * A CSV download written as its rows are read: `pages` yields a page of rows at a time (each read by key), and the
 * next page is read only when the client has taken the previous one, so a catalogue of any size never sits in memory.
 */
export function csvDownload(fileName: string, header: readonly string[], pages: AsyncIterable<(string | number | null)[][]>): Response {
  const iterator = pages[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // A byte-order mark, so spreadsheet programs read the rupee amounts' and names' UTF-8 as such.
      controller.enqueue(encoder.encode(`\uFEFF${stringify([header.map((name) => safeCell(name))])}`));
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        controller.close();
        return;
      }
      if (next.value.length > 0) controller.enqueue(encoder.encode(stringify(next.value.map((row) => row.map(safeCell)))));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
}
