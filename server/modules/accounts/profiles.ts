import type { Kysely, QueryCreator, Selectable, Updateable } from "kysely";
import { avatarUrl } from "#common/accounts/avatar-url.ts";
import { messages } from "#common/shared/messages.ts";
import type { z } from "zod";
import { profileSchema, type privateProfileSchema, type publicProfileSchema } from "#common/accounts/account-schemas.ts";
import { idSchema } from "#common/shared/fields.ts";
import type { ChangeFeed } from "../../platform/change-feed/change-feed.ts";
import type { DB } from "../../platform/db/schema.ts";
import type { UserTable } from "./accounts-tables.ts";
import { isUniqueViolation } from "../../platform/db/write-transaction.ts";
import { fieldConflict, NotFoundError, parseInput } from "../../platform/errors.ts";
import { unsupportedImage, type MediaService } from "../../platform/media/media.ts";
import type { RateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import { countUpload, uploadLimits } from "../../platform/uploads/upload-limits.ts";
import type { SessionUser } from "../../platform/session-user.ts";

/**
 * Pictures are decoded and re-encoded on the server, the costliest work anyone can ask for (once, eight
 * uploads at once made static files wait 14 s), so uploads are counted per account and per client address.
 */
export const uploadRateRules = uploadLimits("upload");

/** Where an upload comes from, for its limit per address. */
export interface UploadOrigin {
  clientIp: string | null;
}

export const AVATAR_PIXELS = 256;

/** What anybody may see of a profile, and what only its owner sees: the shapes the API documents. */
export type PublicProfile = z.infer<typeof publicProfileSchema>;
export type PrivateProfile = z.infer<typeof privateProfileSchema>;

export type ProfilesService = ReturnType<typeof createProfilesService>;

/** Beyond this many reviewed products, a rename drops every cached page at once instead of one event per product. */
const RENAME_EVENTS_MAX = 100;

/**
 * The products a person reviewed, at most `limit` of them, read with `from` (the caller's transaction). The reviews
 * module owns that table and reads this module's (its authors' names), so it is handed in by the composition root
 * rather than imported: accounts importing reviews would close a cycle between the two.
 */
export type ReviewedProducts = (from: Kysely<DB>, userId: string, limit: number) => Promise<string[]>;

/** Announces that what a person's public profile shows changed: see profileAnnouncer. */
export type ProfileAnnouncer = (from: Kysely<DB>, userId: string, change: { renamed: boolean }) => Promise<void>;

/**
 * Announces on the change feed that what a person's public profile shows changed, which drops their cached profile
 * page on every server process (decision 027). Reviews show their author's name, so a rename also changes the pages
 * of every product the person reviewed: each is announced too, and someone who reviewed more products than one
 * announcement per product is worth makes every listener re-read. With a transaction as `from`, nothing is
 * announced before it commits. Every writer of a user's name, username, location or picture calls it: the profile
 * form, the picture upload, and a checkout that saves its details on the profile (the orders module's checkout).
 */
export function profileAnnouncer(changes: ChangeFeed, reviewedProducts: ReviewedProducts): ProfileAnnouncer {
  return async (from, userId, { renamed }) => {
    changes.publish(from, { type: "profile", userId });
    if (!renamed) return;
    const reviewed = await reviewedProducts(from, userId, RENAME_EVENTS_MAX + 1);
    if (reviewed.length > RENAME_EVENTS_MAX) return changes.publish(from, { type: "resync" });
    for (const productId of reviewed) changes.publish(from, { type: "product", productId, aspects: ["reviews"] });
  };
}

/**
 * Saves the details a checkout asked to keep on the profile (name, phone, address), inside the caller's transaction
 * (the order's): they commit with the order or not at all.
 */
export async function saveDeliveryDetails(trx: Kysely<DB>, userId: string, details: { name: string; phone: string; address: string; pin: string }, now: string): Promise<void> {
  await trx.updateTable("users").set({ name: details.name, phone: details.phone, address: details.address, shipPin: details.pin, updatedAt: now }).where("id", "=", userId).execute();
}

/**
 * A person's name and e-mail by `id`, to join `as` an alias: an order's customer, a review's author. A select of
 * one table, which both databases merge into the caller's statement as if the table were joined.
 */
export function namesAndEmails(from: QueryCreator<DB>) {
  return from.selectFrom("users").select(["id", "name", "email"]);
}

export function createProfilesService(db: Kysely<DB>, media: MediaService, rateLimiter: RateLimiter, announceProfileChange: ProfileAnnouncer) {
  async function findUser(userId: unknown) {
    const id = idSchema.safeParse(userId);
    const user = id.success ? await db.selectFrom("users").selectAll().where("id", "=", id.data).executeTakeFirst() : undefined;
    if (!user) throw new NotFoundError(messages.profile.noUserData);
    return user;
  }

  async function findOwnUser(viewer: SessionUser | null, userId: unknown) {
    const user = await findUser(userId);
    if (viewer?.id !== user.id) throw new NotFoundError(messages.profile.noUserData);
    return user;
  }

  /**
   * Writes the fields and the new picture; the old picture goes only once the new one is saved, and only if
   * this service stored it for this user (whatever else the column may hold, no other file is touched).
   */
  async function saveUser(user: Selectable<UserTable>, fields: Updateable<UserTable>, picture?: Uint8Array | null) {
    const owner = user.id;
    const stored = picture?.length ? await media.saveSquareImage(picture, { size: AVATAR_PIXELS, owner }) : null;
    try {
      await db
        .updateTable("users")
        .set({ ...fields, ...(stored ? { image: stored.url } : {}), updatedAt: new Date().toISOString() })
        .where("id", "=", user.id)
        .execute();
    } catch (error) {
      if (stored) await media.remove(stored.url, { owner });
      // Two people choosing one username at the same moment: the unique index decides.
      throw isUniqueViolation(error) ? fieldConflict("username", messages.auth.usernameTaken) : error;
    }
    if (stored && user.image) await media.remove(user.image, { owner });
  }

  return {
    /** Anybody may see the public part; the owner also sees e-mail, phone and address. */
    async getProfile(viewer: SessionUser | null, userId: unknown): Promise<PublicProfile | PrivateProfile> {
      const user = await findUser(userId);
      const profile = {
        id: user.id,
        name: user.name,
        username: user.displayUsername ?? user.username ?? "",
        location: user.location ?? "",
        avatarUrl: avatarUrl(user),
      };
      if (viewer?.id !== user.id) return { ...profile, isOwner: false };
      return { ...profile, isOwner: true, email: user.email, phone: user.phone ?? "", address: user.address ?? "", pin: user.shipPin ?? "" };
    },

    /**
     * The owner's update of their own profile, with an optional new picture (anyone else gets the same 404
     * as for a missing profile). Only the form's fields are read: role, e-mail and verification state can
     * never be set here.
     */
    async updateProfile(viewer: SessionUser | null, userId: unknown, input: unknown, picture?: Uint8Array | null, origin: UploadOrigin = { clientIp: null }) {
      const user = await findOwnUser(viewer, userId);
      const fields = parseInput(profileSchema, input);
      if (picture?.length) await countUpload(rateLimiter, uploadRateRules, user.id, origin.clientIp);
      const username = fields.username.toLowerCase();
      const clash = await db.selectFrom("users").select("id").where("username", "=", username).where("id", "!=", user.id).executeTakeFirst();
      if (clash) throw fieldConflict("username", messages.auth.usernameTaken);
      const { name, phone, address, location } = fields;
      await saveUser(user, { name, username, displayUsername: fields.username, phone, address, location }, picture);
      await announceProfileChange(db, user.id, { renamed: name !== user.name });
      return this.getProfile(viewer, user.id);
    },

    /** Replaces the owner's picture alone (the API's multipart upload). */
    async setPicture(viewer: SessionUser | null, userId: unknown, picture: Uint8Array | null, origin: UploadOrigin = { clientIp: null }) {
      const user = await findOwnUser(viewer, userId);
      if (!picture?.length) throw unsupportedImage();
      await countUpload(rateLimiter, uploadRateRules, user.id, origin.clientIp);
      await saveUser(user, {}, picture);
      await announceProfileChange(db, user.id, { renamed: false });
      return this.getProfile(viewer, user.id);
    },
  };
}
