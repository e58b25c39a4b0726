import { describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "#common/orders/order-schemas.ts";
import { ORDER_STATUSES_AT_0032 } from "./migrations/0032-upi-payments.ts";

describe("order statuses", () => {
  it("are the statuses the database's check constraint allows, as the last migration to change it left them (a new one needs a migration)", () => {
    expect([...ORDER_STATUSES]).toEqual([...ORDER_STATUSES_AT_0032]);
  });
});
