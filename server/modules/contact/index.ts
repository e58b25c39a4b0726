// The contact module's public face: the composition root, the other modules and the tests import only this.
export { adminMessagesApi } from "./contact-admin-api.ts";
export { contactApi } from "./contact-api.ts";
export { countUnhandledMessages, createContactService } from "./contact.ts";
export { contactMigrations } from "./migrations/contact-migrations.ts";
