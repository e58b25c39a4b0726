import { describe, expect, it } from "vitest";
import { bandsOfRange, PRICE_BAND_COUNT, PRICE_MARKS_RUPEES, priceBand } from "./list-filters.ts";

describe("price bands", () => {
  it("give each mark's price a band of its own, between the bands of the prices a paisa either side", () => {
    for (const rupees of PRICE_MARKS_RUPEES) {
      const mark = rupees * 100;
      expect([priceBand(mark - 1), priceBand(mark), priceBand(mark + 1)]).toEqual([priceBand(mark) - 1, priceBand(mark), priceBand(mark) + 1]);
    }
    expect(priceBand(0)).toBe(0);
    expect(priceBand(1_000_000_000)).toBe(PRICE_BAND_COUNT - 1);
  });

  it("hold a range from one mark to another whole, both marks' prices included, and cut none", () => {
    const { whole, cut } = bandsOfRange(30_000, 50_000);
    expect(cut).toEqual([]);
    expect(whole).toEqual([priceBand(30_000), priceBand(30_001), priceBand(40_000), priceBand(40_001), priceBand(50_000)]);
  });

  it("cut the bands a range ends in between marks, keeping only the range's part of each", () => {
    const { whole, cut } = bandsOfRange(33_300, 77_700);
    expect(cut).toEqual([
      { band: priceBand(33_300), lowPaise: 33_300, highPaise: 39_999 },
      { band: priceBand(77_700), lowPaise: 75_001, highPaise: 77_700 },
    ]);
    expect(whole).toEqual([priceBand(40_000), priceBand(40_001), priceBand(50_000), priceBand(50_001), priceBand(75_000)]);
    expect(bandsOfRange(30_100, 39_900)).toEqual({ whole: [], cut: [{ band: priceBand(30_100), lowPaise: 30_100, highPaise: 39_900 }] });
  });

  it("leave the top of the last band open when a range has no highest price", () => {
    const { whole, cut } = bandsOfRange(1_000_050, undefined);
    expect(whole).toEqual([]);
    expect(cut).toEqual([{ band: PRICE_BAND_COUNT - 1, lowPaise: 1_000_050, highPaise: undefined }]);
    expect(bandsOfRange(undefined, undefined)).toEqual({ whole: Array.from({ length: PRICE_BAND_COUNT }, (_, band) => band), cut: [] });
  });
});
