import type { Kysely } from "kysely";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import type { ChangeFeed } from "../../platform/change-feed/change-feed.ts";
import type { StoredImage } from "../../platform/media/media.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { DEFAULT_SHOP_TIME_ZONE } from "../../platform/shop-day.ts";
import { noRestockListener, type RestockListener } from "./inventory.ts";

/**
 * Where the pictures of the product form come from: a finished upload (the tus endpoint of h/uploads) turned
 * into a stored image, the removal of that upload once the save commits, and the removal of a stored image
 * nobody uses any more.
 */
export interface CatalogImages {
  /**
   * The stored picture made from `uploadId`, which `user` uploaded, with the key of its widths and formats
   * (migration 0009); a ServiceError with a message when it is not one.
   */
  fromUpload(uploadId: string, user: SessionUser): Promise<UploadedImage>;
  /**
   * Deletes the raw upload a picture was made from, once the save that used it has committed: until then it
   * stays, so a refused save can be sent again with the same `upload:<id>` tokens.
   */
  removeUpload(uploadId: string): Promise<void>;
  /** Deletes a stored picture; a url this store did not make (a sample illustration) is left alone. */
  remove(url: string): Promise<void>;
}

export interface UploadedImage extends StoredImage {
  mediaKey: string | null;
}

/** What the composition root gives the owner's catalogue editing. */
export interface CatalogEditingDependencies {
  database: Pick<Database, "db" | "dialect">;
  changes: ChangeFeed;
  images: CatalogImages;
  /** The zone the product form's sale window is typed in (SHOP_TIME_ZONE); the shop's default when not given. */
  timeZone?: string | undefined;
  /** Told of a size back in stock, inside the edit's transaction (the back-in-stock alerts); no one when not given. */
  restocked?: RestockListener | undefined;
}

/**
 * The dependencies made once per service and handed to every editing operation: each operation names the part
 * it uses (a `Pick` of this), so a reader sees what it touches.
 */
export interface CatalogEditingContext extends CatalogEditingDependencies {
  db: Kysely<DB>;
  timeZone: string;
  restocked: RestockListener;
}

export function catalogEditingContext(deps: CatalogEditingDependencies): CatalogEditingContext {
  return { ...deps, db: deps.database.db, timeZone: deps.timeZone ?? DEFAULT_SHOP_TIME_ZONE, restocked: deps.restocked ?? noRestockListener };
}
