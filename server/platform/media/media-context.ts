import type { ResumableUploads } from "../uploads/resumable-uploads.ts";
import type { DecoderPool } from "./decoder-pool.ts";
import type { MediaStore } from "./media-store.ts";

/** What the media operations share, made once per media service (./media.ts) and handed to each. */
export interface MediaContext {
  /** Where stored images go. */
  store: MediaStore;
  /** The URL path stored files are served under, without a trailing slash. */
  publicPath: string;
  /** Finished resumable uploads that `imageFromUpload` turns into images (absent for a service without uploads). */
  uploads?: ResumableUploads;
  /** The decoder processes, started on first use. */
  decoders: () => DecoderPool;
  /** Set once the service is closing: a new picture is refused as a restart (429), not queued. */
  closed: boolean;
}
