// The overview module's public face: the composition root and the tests import only this.
export { adminOverviewApi } from "./overview-api.ts";
export { createOverviewService } from "./overview.ts";
