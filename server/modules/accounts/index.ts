// The accounts module's public face: the composition root, the other modules and the tests import only this.
export { createAccountsService } from "./accounts.ts";
export { authApi, authApiPaths } from "./auth-handler.ts";
export { createAuth } from "./auth/auth.ts";
export { authRateRules, DISABLED_AUTH_PATHS, OPEN_AUTH_PATHS, RESET_LINK_MINUTES } from "./auth/auth-rules.ts";
export { isCommonPassword } from "./auth/common-passwords.ts";
export { hashPassword } from "./auth/password-hashing.ts";
export { loadAuthSecret } from "./auth/secret.ts";
export { initialsAvatarSvg } from "./avatars.ts";
export { registerAccountsCacheRules } from "./cache-rules.ts";
export { PROFILE_PAGE_BODY } from "./page-body-limits.ts";
export {
  createProfilesService,
  namesAndEmails,
  profileAnnouncer,
  saveDeliveryDetails,
  uploadRateRules,
  type ProfileAnnouncer,
  type ReviewedProducts,
} from "./profiles.ts";
export { meApi, profilePictureApi, profilesApi } from "./profiles-api.ts";
export { verificationApi } from "./verification-api.ts";
export { listSecurityEvents, recordSecurityEvent, type SecurityEvent, type SecurityEventKind } from "./security-events.ts";
export { accountsMigrations } from "./migrations/accounts-migrations.ts";
export { LAST_USE_STEP_MS, noteSessionUse } from "./session-last-use.ts";
