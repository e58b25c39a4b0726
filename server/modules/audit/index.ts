// The audit module's public face: other modules record their admin changes only through recordAdminChange, in their
// own transaction; the composition root mounts the service and the API.
export { adminActivityApi } from "./audit-api.ts";
export { ADMIN_COMMAND, changedFields, createAuditService, recordAdminChange, type Actor, type AdminChange, type AuditService, type FieldChanges } from "./audit.ts";
export { auditMigrations } from "./migrations/audit-migrations.ts";
