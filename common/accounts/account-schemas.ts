import { z } from "zod";
import { MAX_IMAGE_BYTES } from "../shared/constants.ts";
import { messages } from "../shared/messages.ts";
import { addressSchema, emailSchema, phoneSchema, plainText, requiredText } from "../shared/fields.ts";

const v = messages.validation;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** A new password. Whether it is one of the most common ones is checked on the server (the list is large). */
export const newPasswordSchema = z
  .string({ error: v.passwordRequired })
  .min(1, v.passwordRequired)
  .min(PASSWORD_MIN, v.passwordTooShort)
  .max(PASSWORD_MAX, v.passwordTooLong)
  .pipe(plainText());

/** A password typed to prove who one is: never checked for strength, but no control characters either. */
const typedPassword = (required: string) => z.string({ error: required }).min(1, required).max(PASSWORD_MAX, v.passwordTooLong).pipe(plainText());

export const usernameSchema = requiredText(v.usernameRequired, 30)
  .min(3, v.usernameInvalid)
  .regex(/^[A-Za-z0-9_.]+$/, v.usernameInvalid);

export const registerSchema = z.object({
  name: requiredText(v.nameRequired, 100),
  username: usernameSchema,
  email: emailSchema,
  password: newPasswordSchema,
});

export const loginSchema = z.object({
  email: emailSchema,
  password: typedPassword(v.passwordRequired),
  /** The code e-mailed when an account needs one besides its password (empty: none, or send a new one). */
  code: z.string().trim().max(20).optional(),
});

export const emailOnlySchema = z.object({ email: emailSchema });

export const resetPasswordSchema = z.object({
  token: z.string().min(1).max(500).pipe(plainText()),
  password: newPasswordSchema,
});

/** A verification link followed by someone who must show they know the account's password (decision 008). */
export const verifyEmailSchema = z.object({
  token: resetPasswordSchema.shape.token,
  password: typedPassword(v.passwordRequired),
});

export const changePasswordSchema = z.object({
  currentPassword: typedPassword(v.currentPasswordRequired),
  newPassword: newPasswordSchema,
});

export const profileSchema = z.object({
  name: requiredText(v.fullNameRequired, 100),
  username: usernameSchema,
  phone: phoneSchema,
  address: addressSchema,
  // Left out (a JSON client sending only what it changes), it stays as it is; the page's form always sends it.
  location: z.string().trim().max(100, messages.profile.locationTooLong(100)).pipe(plainText()).optional(),
});
export type ProfileInput = z.output<typeof profileSchema>;

/** A picture chosen in a form: its size is checked before it is sent; what it is, only on the server. */
const pictureSchema = z
  .unknown()
  .refine((value) => !(value instanceof Blob) || value.size <= MAX_IMAGE_BYTES, messages.images.tooLarge)
  .optional();

/** The profile page's form: the fields above and a picture (the JSON API takes the picture separately). */
export const profileFormSchema = profileSchema.extend({ image: pictureSchema });

// ---- What the JSON API answers about people.

const profileFields = {
  id: z.string(),
  name: z.string(),
  username: z.string(),
  location: z.string(),
  avatarUrl: z.string().meta({ description: "The uploaded picture, else a generated initials avatar" }),
};

/** What anybody may see of a profile. */
export const publicProfileSchema = z.strictObject({ ...profileFields, isOwner: z.literal(false) }).meta({ id: "PublicProfile" });

/** What only the owner sees of their profile. */
export const privateProfileSchema = z
  .strictObject({ ...profileFields, isOwner: z.literal(true), email: z.string(), phone: z.string(), address: z.string(), pin: z.string().meta({ description: "The PIN code of the delivery details a checkout saved; empty when none" }) })
  .meta({ id: "PrivateProfile" });

export const profileViewSchema = z.discriminatedUnion("isOwner", [publicProfileSchema, privateProfileSchema]).meta({ id: "Profile" });

/** The username an account made by a provider sign-in chooses before it goes on: the register form's rules. */
export const chooseUsernameSchema = z.object({ username: usernameSchema });
