// The orders module's public face: the composition root, the other modules and the tests import only this.
export { createOrdersService, type OrdersDependencies } from "./orders.ts";
export type { UpiPayee } from "./payments.ts";
export { REFUSAL_REASONS, type CheckoutMetrics } from "./checkout-metrics.ts";
export { adminOrdersApi, ordersApi } from "./orders-api.ts";
export { readDailyTotals } from "./daily-totals.ts";
export { detachCustomer } from "./order-records.ts";
export { ordersMigrations } from "./migrations/orders-migrations.ts";
