import { z } from "zod";

/**
 * The signed-in person as every service sees them, and as GET /api/me answers. It lives beside the other shared
 * shapes because the server's platform checks who is asking with it, and the platform reads no feature's schemas.
 */
export const sessionUserSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    username: z.string(),
    image: z.string().nullable().meta({ description: "The uploaded picture's address; null for the initials avatar" }),
    emailVerified: z.boolean(),
    isAdmin: z.boolean(),
    /**
     * Present (true) only for an admin refused the admin's rights until they turn on two-factor authentication
     * (REQUIRE_ADMIN_2FA); isAdmin is then false.
     */
    adminNeedsTwoFactor: z.literal(true).optional(),
  })
  .meta({ id: "SessionUser" });

export type SessionUser = z.infer<typeof sessionUserSchema>;
