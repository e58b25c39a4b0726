import path from "node:path";
import { migrateToLatest } from "../server/migrations.ts";
import { openDatabase } from "../server/platform/db/client.ts";
import { createResumableUploads } from "../server/platform/uploads/resumable-uploads.ts";

/**
 * The tus uploads as the media benches use them, without the rest of the shop: their folder and the quotas' tally
 * (a table) in an embedded database of their own, both under `dataDir`.
 */
export async function uploadsAlone(dataDir: string) {
  const database = openDatabase({ sqliteFile: path.join(dataDir, "uploads.db") });
  await migrateToLatest(database);
  const uploads = createResumableUploads({ database, directory: path.join(dataDir, "uploads"), basePath: "/api/uploads" });
  return { uploads, close: () => database.destroy() };
}
