import type { Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * Product and category images made from uploads are stored at several widths and formats (decision 022). A row
 * keeps the random key they share; with the stored width it names every file (common/shared/media-variants.ts).
 * Rows without one (the seed's illustrations, older images) keep their single url and are shown as before.
 */
export function imageVariantsMigration(_context: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("product_images").addColumn("media_key", "text").execute();
      await db.schema.alterTable("categories").addColumn("image_media_key", "text").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("product_images").dropColumn("media_key").execute();
      await db.schema.alterTable("categories").dropColumn("image_media_key").execute();
    },
  };
}
