import path from "node:path";
import { ConfigError, loadConfig } from "../server/config.ts";
import { createS3Client } from "../server/platform/object-storage/s3-bucket.ts";
import { moveMediaToBucket } from "../server/platform/object-storage/move-media-to-bucket.ts";

// npm run media:to-s3: moves the pictures stored so far in DATA_DIR/media into the MEDIA_S3_BUCKET bucket (README,
// Pictures in a bucket; docs/decisions/059). Safe to run twice and after an interruption. Run it once the server
// already uses the bucket, so no new picture lands in the folder meanwhile; pictures not yet moved stay unseen until then.
async function main(): Promise<number> {
  const config = loadConfig();
  if (!config.mediaS3) {
    console.error("MEDIA_S3_BUCKET is not set: there is no bucket to move the pictures to. Set MEDIA_S3_BUCKET (and the other MEDIA_S3_* settings; README, Configuration) and run this again.");
    return 2;
  }
  const mediaDir = path.join(config.dataDir, "media");
  const client = createS3Client(config.mediaS3);
  try {
    const { moved, skipped } = await moveMediaToBucket({ mediaDir, settings: config.mediaS3, client });
    console.log(`Moved ${moved} picture${moved === 1 ? "" : "s"} from ${mediaDir} to the bucket ${config.mediaS3.bucket}.`);
    if (skipped.length) console.log(`Left in the folder (not pictures the shop made): ${skipped.join(", ")}`);
    return 0;
  } finally {
    client.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    console.error("The move stopped: every picture not yet reported moved is still in the folder; run it again to carry on.");
    process.exit(1);
  },
);
