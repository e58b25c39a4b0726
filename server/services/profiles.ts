import type { Kysely, Selectable, Updateable } from "kysely";
import { avatarUrl } from "#common/avatar-url.ts";
import { messages } from "#common/messages.ts";
import { profileSchema } from "#common/schemas/account.ts";
import { idSchema } from "#common/schemas/fields.ts";
import type { DB, UserTable } from "../db/schema.ts";
import { isUniqueViolation } from "../db/write-transaction.ts";
import { fieldConflict, NotFoundError, parseInput } from "./errors.ts";
import { unsupportedImage, type MediaService } from "./media.ts";
import type { SessionUser } from "./session-user.ts";

export const AVATAR_PIXELS = 256;

export interface PublicProfile {
  id: string;
  name: string;
  username: string;
  location: string;
  /** The uploaded picture, else a generated initials avatar. */
  avatarUrl: string;
  isOwner: boolean;
}

/** What only the owner sees of their profile. */
export interface PrivateProfile extends PublicProfile {
  email: string;
  phone: string;
  address: string;
}

export type ProfilesService = ReturnType<typeof createProfilesService>;

export function createProfilesService(db: Kysely<DB>, media: MediaService) {
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
      const profile: PublicProfile = {
        id: user.id,
        name: user.name,
        username: user.displayUsername ?? user.username ?? "",
        location: user.location ?? "",
        avatarUrl: avatarUrl(user),
        isOwner: viewer?.id === user.id,
      };
      if (!profile.isOwner) return profile;
      return { ...profile, email: user.email, phone: user.phone ?? "", address: user.address ?? "" };
    },

    /**
     * The owner's update of their own profile, with an optional new picture (anyone else gets the same 404
     * as for a missing profile). Only the form's fields are read: role, e-mail and verification state can
     * never be set here.
     */
    async updateProfile(viewer: SessionUser | null, userId: unknown, input: unknown, picture?: Uint8Array | null) {
      const user = await findOwnUser(viewer, userId);
      const fields = parseInput(profileSchema, input);
      const username = fields.username.toLowerCase();
      const clash = await db.selectFrom("users").select("id").where("username", "=", username).where("id", "!=", user.id).executeTakeFirst();
      if (clash) throw fieldConflict("username", messages.auth.usernameTaken);
      const { name, phone, address, location } = fields;
      await saveUser(user, { name, username, displayUsername: fields.username, phone, address, location }, picture);
      return this.getProfile(viewer, user.id);
    },

    /** Replaces the owner's picture alone (the API's multipart upload). */
    async setPicture(viewer: SessionUser | null, userId: unknown, picture: Uint8Array | null) {
      const user = await findOwnUser(viewer, userId);
      if (!picture?.length) throw unsupportedImage();
      await saveUser(user, {}, picture);
      return this.getProfile(viewer, user.id);
    },
  };
}
