// The orders module's public face: the composition root, the other modules and the tests import only this.
export { adminApi } from "./admin-orders-api.ts";
export { createOrdersService } from "./orders.ts";
export { adminOrdersApi, cartApi, ordersApi } from "./shopping-api.ts";
export { readDailyTotals, type DailyOrderTotals } from "./daily-totals.ts";
