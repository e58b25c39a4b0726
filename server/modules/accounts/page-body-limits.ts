import { PAGE_UPLOAD_LIMIT, type LargePageBody } from "../../platform/http/page-body-limit.ts";

/**
 * The profile form takes a picture, so its page (and React Router's own submissions to it, with `.data` added)
 * accepts a larger body than other pages, for a signed-in person only.
 */
export const PROFILE_PAGE_BODY: LargePageBody = { path: /^\/profile\/[^/]+?(?:\.data)?\/?$/, maxBytes: PAGE_UPLOAD_LIMIT };
