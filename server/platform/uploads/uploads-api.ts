import { Hono, type Handler } from "hono";
import { describeRoute, idParameter } from "../http/api-docs.ts";
import type { PlatformEnv } from "../http/http-env.ts";
import { currentUser } from "../http/request-context.ts";
import type { ResumableUploads } from "./resumable-uploads.ts";

// tus answers in its own protocol (statuses and text bodies), like Better Auth: the document names each step,
// not body shapes (tests/support/api-contract.ts treats /uploads as a library's contract).
const tusRefusals = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { description: TUS_REFUSALS[status] ?? "Refused" },
    ]),
  );
const TUS_REFUSALS: Record<number, string> = {
  400: "Not a valid tus request (no purpose, no Upload-Length, Upload-Defer-Length, Upload-Concat)",
  401: "Not logged in",
  403: "Not an admin: only the catalogue's pictures are uploaded this way",
  404: "No such upload of one's own",
  409: "Upload-Offset is not where the upload stands",
  // One status for every 'no room' (decision 035): the request is larger than the server is willing or able to
  // take, it is not worth an automatic retry (tus-js-client retries 5xx), and the message says whose room ran out.
  413: "No room: declared over 20 MB, or over what the account's or the shop's quota of unfinished uploads has left, or it would leave the disk below its reserve; a PATCH past the declared length",
};
const uploadParameters = [idParameter("uploadId")];

/**
 * The tus endpoint (/api/uploads and /api/uploads/<id>). Mounted before the JSON body limits: a PATCH carries a
 * 5 MiB chunk, and tus itself refuses an upload larger than it was declared (at most 20 MB).
 */
export function uploadsApi(uploads: ResumableUploads) {
  /** Every tus request goes to tus itself, with who is asking; the routes below only say what the protocol does. */
  const toTus: Handler<PlatformEnv> = async (c) => uploads.handle(c.req.raw, await currentUser(c));
  return (
    new Hono<PlatformEnv>()
      .post(
        "/",
        describeRoute({
          summary:
            "Begin a resumable upload (tus 1.0.0: Tus-Resumable, Upload-Length at most 20 MB, Upload-Metadata with purpose product or category). Admins only. The declared length counts against the account's and the shop's quotas of unfinished uploads until the upload is used, removed or expires, and is refused when the disk would fall below its reserve; each refusal is 413 with a message saying which",
          responses: {
            201: { description: "Created; Location is the upload's address" },
            ...tusRefusals(400, 401, 403, 413),
          },
        }),
        toTus,
      )
      .on(
        "HEAD",
        "/:uploadId",
        describeRoute({
          summary: "How much of one's own upload arrived (Upload-Offset)",
          parameters: uploadParameters,
          responses: {
            200: { description: "Upload-Offset and Upload-Length" },
            ...tusRefusals(401, 404),
          },
        }),
        toTus,
      )
      .patch(
        "/:uploadId",
        describeRoute({
          summary:
            "Send the next chunk (application/offset+octet-stream, from Upload-Offset; the shop's pages send 5 MiB)",
          parameters: uploadParameters,
          responses: {
            204: { description: "Stored; Upload-Offset is the new offset" },
            ...tusRefusals(401, 404, 409, 413),
          },
        }),
        toTus,
      )
      .delete(
        "/:uploadId",
        describeRoute({
          summary: "Abandon one's own upload (its room in the quotas is free again)",
          parameters: uploadParameters,
          responses: {
            204: { description: "Deleted" },
            ...tusRefusals(401, 404),
          },
        }),
        toTus,
      )
      // The rest of the protocol (OPTIONS discovery) and its refusals (GET is 405: raw bytes are never served).
      .all("/*", toTus)
  );
}
