import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
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
  addMultipartCalls(server as unknown as KoaLike, directory);
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

/** The little of s3rver's Koa app that `addMultipartCalls` uses. */
interface KoaLike {
  middleware: Array<(ctx: KoaContext, next: () => Promise<void>) => Promise<void>>;
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
}
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}

/**
 * s3rver 3.7.1 lacks two calls of multipart uploads that tus's S3 store makes and that AWS S3, R2 and MinIO all
 * answer: ListParts (GET /bucket/key?uploadId=…, how much of an upload arrived) and AbortMultipartUpload (DELETE
 * /bucket/key?uploadId=…); it answers them MethodNotAllowed. They are added here, to the tests' server only, read
 * from where s3rver keeps an unfinished upload's parts (`<bucket>/…uploads/<uploadId>/<partNumber>` and its
 * `.md5`, as its putPart writes them), answering S3's own XML. A middleware placed just before s3rver's router.
 */
function addMultipartCalls(server: KoaLike, root: string) {
  const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const middleware = async (ctx: KoaContext, next: () => Promise<void>) => {
    const uploadId = ctx.query.uploadId;
    const [, bucket, ...keyParts] = ctx.path.split("/");
    const key = decodeURIComponent(keyParts.join("/"));
    if (typeof uploadId !== "string" || !bucket || !key || ctx.query.partNumber !== undefined || (ctx.method !== "GET" && ctx.method !== "DELETE")) {
      return next();
    }
    // uploadId comes from the request: only the shape s3rver makes (hex) may name a folder.
    const uploadDir = /^[0-9a-f]+$/.test(uploadId) ? path.join(server.store.getResourcePath(bucket, undefined, "uploads"), uploadId) : "";
    const owner = uploadDir ? await readFile(path.join(uploadDir, "key"), "utf8").catch(() => null) : null;
    if (!uploadDir || !uploadDir.startsWith(root) || owner !== key) {
      ctx.status = 404;
      ctx.type = "application/xml";
      ctx.body = xml(`<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${escape(uploadId)}</UploadId></Error>`);
      return;
    }
    if (ctx.method === "DELETE") {
      await rm(uploadDir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    const numbers = (await readdir(uploadDir)).filter((name) => /^\d+$/.test(name)).map(Number).sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (number) => {
        const file = path.join(uploadDir, String(number));
        const [info, md5] = await Promise.all([stat(file), readFile(`${file}.md5`, "utf8")]);
        return `<Part><PartNumber>${number}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${info.size}</Size></Part>`;
      }),
    );
    ctx.status = 200;
    ctx.type = "application/xml";
    ctx.body = xml(
      `<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${escape(bucket)}</Bucket><Key>${escape(key)}</Key>` +
        `<UploadId>${uploadId}</UploadId><PartNumberMarker>0</PartNumberMarker><NextPartNumberMarker>${numbers.at(-1) ?? 0}</NextPartNumberMarker>` +
        `<MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${parts.join("")}</ListPartsResult>`,
    );
  };
  server.middleware.splice(server.middleware.length - 1, 0, middleware);
}
