import { describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "#common/orders/order-schemas.ts";
import { ORDER_STATUSES_AT_0003 } from "./migrations/0003-orders.ts";

describe("order statuses", () => {
  it("are the statuses the database's check constraint allows (a new one needs a migration)", () => {
    expect([...ORDER_STATUSES]).toEqual([...ORDER_STATUSES_AT_0003]);
  });
});
