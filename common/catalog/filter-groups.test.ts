import { describe, expect, it } from "vitest";
import { messages } from "../shared/messages.ts";
import { chosenGroups, NO_FILTERS, readListFilters, withoutGroup } from "./list-filters.ts";

describe("a list's filter groups", () => {
  it("names the groups chosen in the panel's order, a price with one end counting as a price, an order as none", () => {
    const filters = readListFilters({ sort: "price-asc", max: "500", stock: "1", light: ["low", "medium"], pets: "safe" });
    expect(chosenGroups(filters)).toEqual(["light", "pets", "stock", "price"]);
    expect(chosenGroups({ ...NO_FILTERS, sort: "newest" })).toEqual([]);
  });

  it("drops one group's whole choice and keeps the rest and the order", () => {
    const filters = readListFilters({ sort: "rating", light: ["low", "medium"], care: "beginner", place: "indoor", min: "300", max: "500" });
    expect(withoutGroup(filters, "light")).toEqual({ ...filters, light: [] });
    expect(withoutGroup(filters, "price")).toEqual({ ...filters, minRupees: undefined, maxRupees: undefined });
    expect(withoutGroup(filters, "place")).toEqual({ ...filters, place: undefined });
    expect(withoutGroup(filters, "pets")).toBe(filters);
  });

  it("words a price range with both ends, the lowest alone and the highest alone", () => {
    expect(messages.filters.priceRange(300, 1500)).toBe("₹300 to ₹1,500");
    expect(messages.filters.priceRange(300, undefined)).toBe("₹300 or more");
    expect(messages.filters.priceRange(undefined, 500)).toBe("₹500 or less");
  });
});
