import type { MigrationPart } from "../../../platform/db/migrate.ts";
import { catalogTablesMigration } from "./0001-catalog.ts";
import { seedingRecordMigration } from "./0007-seeding-record.ts";
import { reviewTotalsMigration } from "./0008-reviews.ts";
import { imageVariantsMigration } from "./0009-image-variants.ts";
import { adminCatalogMigration } from "./0010-admin-catalog.ts";
import { catalogSearchMigration } from "./0012-catalog-search.ts";
import { nameSearchMigration } from "./0013-name-search.ts";
import { salePricesMigration } from "./0022-sale-prices.ts";
import { variantsMigration } from "./0023-variants.ts";
import { careProfileMigration } from "./0024-care-profile.ts";
import { listFiltersMigration } from "./0025-list-filters.ts";
import { facetTriggerGuardMigration } from "./0028-facet-trigger-guard.ts";
import { facetCellCountsMigration } from "./0035-facet-cell-counts.ts";
import { priceBandCountsMigration } from "./0036-price-band-counts.ts";
import { catalogImportsMigration } from "./0037-catalog-imports.ts";

/** The catalog's parts of the migration history (server/migrations.ts puts every owner's together). */
export const catalogMigrations: readonly MigrationPart[] = [
  { name: "0001-catalog", migration: catalogTablesMigration },
  { name: "0007-seeding-record", migration: seedingRecordMigration },
  { name: "0008-reviews", migration: reviewTotalsMigration },
  { name: "0009-image-variants", migration: imageVariantsMigration },
  { name: "0010-admin-catalog", migration: adminCatalogMigration },
  { name: "0012-catalog-search", migration: catalogSearchMigration },
  { name: "0013-name-search", migration: nameSearchMigration },
  { name: "0022-sale-prices", migration: salePricesMigration },
  { name: "0023-variants", migration: variantsMigration },
  { name: "0024-care-profile", migration: careProfileMigration },
  { name: "0025-list-filters", migration: listFiltersMigration },
  { name: "0028-facet-trigger-guard", migration: facetTriggerGuardMigration },
  { name: "0035-facet-cell-counts", migration: facetCellCountsMigration },
  { name: "0036-price-band-counts", migration: priceBandCountsMigration },
  { name: "0037-catalog-imports", migration: catalogImportsMigration },
];
