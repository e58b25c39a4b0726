import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import { createS3Client, type S3BucketSettings } from "../../server/platform/object-storage/s3-bucket.ts";

/** s3rver's fixed credentials: it accepts these and signs nothing else. */
const S3RVER_KEY = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface TestS3Server {
  /** Settings for the shop's MEDIA_S3_* pointing at this server's bucket (path-style, its public URL being the bucket's address). */
  settings: S3BucketSettings;
  /** The same as environment variables, for a server process. */
  env: Record<string, string>;
  endpoint: string;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver) on loopback, with one empty bucket, its objects in a temporary folder: what
 * the shop's bucket code talks to in tests. Each call makes its own, on a port of its own.
 */
export async function startTestS3Server(options: { bucket?: string; port?: number } = {}): Promise<TestS3Server> {
  const bucket = options.bucket ?? "plant-shop-media";
  const directory = await mkdtemp(path.join(os.tmpdir(), "plant-shop-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: options.port ?? 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: S3BucketSettings = {
    bucket,
    endpoint,
    region: "us-east-1",
    credentials: S3RVER_KEY,
    forcePathStyle: true,
    publicUrl: `${endpoint}/${bucket}`,
  };
  const client = createS3Client(settings);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return {
    settings,
    endpoint,
    env: {
      MEDIA_S3_BUCKET: bucket,
      MEDIA_S3_ENDPOINT: endpoint,
      MEDIA_S3_REGION: settings.region,
      MEDIA_S3_ACCESS_KEY_ID: S3RVER_KEY.accessKeyId,
      MEDIA_S3_SECRET_ACCESS_KEY: S3RVER_KEY.secretAccessKey,
      MEDIA_S3_PUBLIC_URL: `${endpoint}/${bucket}`,
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
