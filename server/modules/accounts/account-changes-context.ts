import type { Kysely } from "kysely";
import type { ChangeFeed } from "../../platform/change-feed/change-feed.ts";
import type { DB } from "../../platform/db/schema.ts";
import type { MailOutbox } from "../../platform/mail/mail-outbox.ts";
import type { MediaService } from "../../platform/media/media.ts";
import type { AccountsContext } from "./accounts-context.ts";

/**
 * What other modules keep of a person, each removed or detached by the module that owns it, inside the deletion's
 * transaction (decision 040). Handed in by the composition root: orders and reviews read this module's tables, so
 * accounts importing them would close a cycle.
 */
export interface RecordsElsewhere {
  /** Orders: kept for the shop's records, no longer linked to the person. */
  detachCustomer(trx: Kysely<DB>, userId: string): Promise<void>;
  /** Reviews: kept, shown as 'Anonymous'; answers the products whose reviews changed. */
  detachReviews(trx: Kysely<DB>, userId: string): Promise<string[]>;
  /** The cart: emptied. */
  emptyCart(trx: Kysely<DB>, userId: string): Promise<void>;
}

/** What changing the address and deleting the account use besides the accounts service's own dependencies. */
export interface AccountChangesDependencies {
  outbox: MailOutbox;
  media: Pick<MediaService, "remove">;
  changes: ChangeFeed;
  shopName: string;
  recordsElsewhere: RecordsElsewhere;
}

export type AccountChangesContext = AccountsContext & AccountChangesDependencies;
