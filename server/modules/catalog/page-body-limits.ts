import { PAGE_UPLOAD_LIMIT, type LargePageBody } from "../../platform/http/page-body-limit.ts";

/**
 * The catalogue's CSV import takes a file: its page accepts a larger body than other pages, for a signed-in person
 * only. The limit is above the import's own (CSV_IMPORT_MAX_BYTES), so a file between the two gets the import's message.
 */
export const CSV_IMPORT_PAGE_BODY: LargePageBody = { path: /^\/admin\/products\/import(?:\.data)?\/?$/, maxBytes: PAGE_UPLOAD_LIMIT };
