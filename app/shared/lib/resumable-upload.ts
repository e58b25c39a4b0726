import { Upload, type DetailedError } from "tus-js-client";
import { messages } from "#common/shared/messages.ts";
import { MAX_UPLOAD_BYTES, UPLOAD_CHUNK_BYTES, UPLOADS_PATH, type UploadPurpose } from "#common/shared/uploads.ts";

export interface ResumableUpload {
  /** The upload's id once every byte arrived (what a form sends as `upload:<id>`). */
  done: Promise<string>;
  /** Stops sending; the part that arrived stays on the server, and choosing the same file again resumes it. */
  abort(): void;
}

export interface ResumableUploadOptions {
  purpose: UploadPurpose;
  onProgress?: (sent: number, total: number) => void;
  /** Where uploads go; the shop's own endpoint unless a test says otherwise. */
  endpoint?: string;
}

/** Waits between retries after a dropped connection (tus asks what arrived, then sends the rest). */
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10000, 20000];

/**
 * Sends a file with the tus protocol in 5 MiB chunks (docs/product.md, Pictures). tus-js-client keeps each upload's
 * address in localStorage under the file's fingerprint (name, type, size, last change), so after a dropped
 * connection — or a page reload and choosing the same file again — it asks how much arrived and sends only the rest.
 */
export function startResumableUpload(file: File, options: ResumableUploadOptions): ResumableUpload {
  let upload: Upload | undefined;
  const done = new Promise<string>((resolve, reject) => {
    if (file.size > MAX_UPLOAD_BYTES) {
      reject(new Error(messages.uploads.tooLarge));
      return;
    }
    upload = new Upload(file, {
      endpoint: options.endpoint ?? UPLOADS_PATH,
      chunkSize: UPLOAD_CHUNK_BYTES,
      retryDelays: RETRY_DELAYS_MS,
      metadata: { purpose: options.purpose, filename: file.name, filetype: file.type },
      storeFingerprintForResuming: true,
      // A finished upload is used once by the form; its address is no use afterwards.
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => options.onProgress?.(sent, total),
      onShouldRetry: (error) => {
        // Our refusals (4xx: not allowed, too large, expired) will not change on a retry; lost connections and 5xx may.
        const status = error.originalResponse?.getStatus() ?? 0;
        return status === 0 || status === 409 || status === 423 || status >= 500;
      },
      onError: (error) => reject(new Error(readableMessage(error))),
      onSuccess: () => {
        const id = upload?.url?.split("/").pop();
        if (id) resolve(id);
        else reject(new Error(messages.uploads.failed));
      },
    });
    const started = upload;
    void started.findPreviousUploads().then(
      (previous) => {
        const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
        if (latest) started.resumeFromPreviousUpload(latest);
        started.start();
      },
      () => started.start(),
    );
  });
  return {
    done,
    abort: () => {
      void upload?.abort(false);
    },
  };
}

/** The server's `{ message }` when it sent one, else a general failure. */
function readableMessage(error: Error | DetailedError): string {
  const body = "originalResponse" in error ? error.originalResponse?.getBody() : undefined;
  if (body) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed && typeof parsed === "object" && "message" in parsed && typeof parsed.message === "string") return parsed.message;
    } catch {
      // tus's own refusals are plain text.
      if (body.length < 200) return body;
    }
  }
  return messages.uploads.failed;
}
