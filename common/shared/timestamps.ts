/** An instant exactly as the server writes one (`Date.prototype.toISOString`, years 0001–9999). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Whether a time read back from a client (inside a page cursor) is one the server could have written. JavaScript
 * reads far more than PostgreSQL takes — '2030-02-30', year 0000, '-000001-…', '+010000-…', '1 abc' — and each
 * of those reached the database as a 500 there, where SQLite compared it as text.
 */
export function isServerInstant(text: string): boolean {
  if (!ISO_INSTANT.test(text) || text.startsWith("0000")) return false;
  const time = Date.parse(text);
  return !Number.isNaN(time) && new Date(time).toISOString() === text;
}
