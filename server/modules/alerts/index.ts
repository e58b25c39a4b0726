// The back-in-stock alerts' public face: the composition root, the other modules and the tests import only this.
export { ALERTS_PER_UNIT, countWaiting, createAlertsService, MAX_ALERTS_PER_PERSON, UNCONFIRMED_TTL_MS, UNSUBSCRIBE_PATH, type AlertsService } from "./alerts.ts";
export { oneClickUnsubscribe } from "./one-click-unsubscribe.ts";
export { alertsMigrations } from "./migrations/alerts-migrations.ts";
