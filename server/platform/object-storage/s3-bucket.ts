import { NoSuchKey, S3Client } from "@aws-sdk/client-s3";

/**
 * An S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, …) that stored pictures and unfinished uploads live in
 * instead of DATA_DIR, so that several server copies, or a replaced server, see the same files (MEDIA_S3_*).
 */
export interface S3BucketSettings {
  bucket: string;
  /** The service's address; unset, AWS S3 itself for `region`. */
  endpoint: string | undefined;
  region: string;
  /** Access key and secret; unset, the SDK's own chain (AWS_* variables, an instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Addresses objects as `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>` (MinIO, most self-hosted servers). */
  forcePathStyle: boolean;
  /**
   * Where browsers read stored pictures straight from the bucket (or a CDN in front of it), without the trailing
   * slash; unset, the shop reads them from the bucket and serves them itself under /media.
   */
  publicUrl: string | undefined;
}

// The SDK warns once per process that its releases after January 2027 will need Node 22. The version the shop pins
// supports Node 20, which the shop supports; the warning would read as a fault in every server's log.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

/** The one way the shop makes an S3 client from its settings: the media store and tus's store share it. */
export function s3ClientConfig(settings: S3BucketSettings) {
  return {
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
  };
}

export function createS3Client(settings: S3BucketSettings): S3Client {
  return new S3Client(s3ClientConfig(settings));
}

/** A missing object, however the service says it: GetObject's NoSuchKey, or a bare 404 (HEAD, some servers). */
export function isMissingObject(error: unknown): boolean {
  if (error instanceof NoSuchKey) return true;
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}
