// The delivery module's public face: the composition root, the other modules and the tests import only this.
export { createDeliveryService, type DeliveryService, type ZoneFormValues } from "./delivery.ts";
export { allOfIndia, DEFAULT_DAYS, deliveryZoneFor, describeDelivery, type ShopShipping } from "./zone-lookup.ts";
export { deliveryMigrations } from "./migrations/delivery-migrations.ts";
// One rule for the checkout and its page: the pure function lives with the shared schemas.
export { codRefusal } from "#common/delivery/cod-refusal.ts";
