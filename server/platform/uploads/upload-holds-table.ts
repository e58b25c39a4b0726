// The upload quota's tally as Kysely sees it (created by ./migrations), part of the database's type in ../db/schema.ts.
export interface UploadHoldTable {
  /** The upload's id, or `reserving:<uuid>` while tus has not yet named the upload being created. */
  id: string;
  /** The account that created it. */
  uploader: string;
  /** What it counts against the quotas: its declared length, at least the least charge. */
  bytes: number;
  /** Milliseconds since the epoch when the row took its id: the sweep leaves younger rows alone. */
  held_since: number;
}
