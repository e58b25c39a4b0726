// The contact module's public face: the composition root, the other modules and the tests import only this.
export { contactApi } from "./contact-api.ts";
export { contactInboxApi } from "./contact-inbox-api.ts";
export { createContactService } from "./contact.ts";
