import { describe, expect, it } from "vitest";
import { chosenVariant, sellableName, sizeLine } from "./variant-names.ts";

const sizes = [{ id: "medium" }, { id: "large" }, { id: "extra-large" }];

describe("chosenVariant", () => {
  it("is the size the link names", () => {
    expect(chosenVariant(sizes, "large")).toBe(sizes[1]);
  });

  it("is the first size when the link names none, or one the product does not have", () => {
    expect(chosenVariant(sizes, null)).toBe(sizes[0]);
    expect(chosenVariant(sizes, "")).toBe(sizes[0]);
    expect(chosenVariant(sizes, "gone")).toBe(sizes[0]);
  });

  it("refuses a product without sizes, which the catalogue never serves", () => {
    expect(() => chosenVariant([], "large")).toThrow();
  });
});

describe("size names", () => {
  it("names a size after the plant, and a one-size plant by its name alone", () => {
    expect(sellableName("Fiddle Leaf Fig", 'Large · 10" pot')).toBe('Fiddle Leaf Fig (Large · 10" pot)');
    expect(sellableName("Snake Plant", "")).toBe("Snake Plant");
  });

  it("gives a line under the name only for a size with a label", () => {
    expect(sizeLine('Large · 10" pot')).toBe('Size: Large · 10" pot');
    expect(sizeLine("")).toBeNull();
    expect(sizeLine(null)).toBeNull();
  });
});
