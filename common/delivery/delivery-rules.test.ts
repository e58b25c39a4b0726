import { describe, expect, it } from "vitest";
import { messages } from "../shared/messages.ts";
import { codRefusal } from "./cod-refusal.ts";
import { deliveredBy, formatDeliveryDay } from "./delivery-estimate.ts";
import { zoneSchema } from "./delivery-schemas.ts";
import { parsePinAreas, prefixesOf, prefixesOfPin } from "./pin-areas.ts";

const m = messages.delivery;
/** 10:00 in India on Monday 30 November 2026. */
const MONDAY_MORNING = Date.parse("2026-11-30T04:30:00Z");

describe("PIN code areas", () => {
  it("reads prefixes, ranges and single codes as the ranges they cover, and names each bad entry", () => {
    expect(parsePinAreas("560, 400001-400104\n560001")).toEqual({
      areas: [
        { lo: 560_000, hi: 560_999, entry: "560" },
        { lo: 400_001, hi: 400_104, entry: "400001-400104" },
        { lo: 560_001, hi: 560_001, entry: "560001" },
      ],
    });
    expect(parsePinAreas("560, 05600, 400104-400001, abc")).toEqual({ problems: [m.areaInvalid("05600"), m.areaBackwards("400104-400001"), m.areaInvalid("abc")] });
    expect(parsePinAreas(" , ")).toEqual({ problems: [m.areasRequired] });
  });

  it("cuts a range into the decimal prefixes it is made of, and a PIN code into the six it may match", () => {
    expect(prefixesOf(560_000, 599_999)).toEqual(["56", "57", "58", "59"]);
    expect(prefixesOf(400_001, 400_104)).toEqual([
      ...["400001", "400002", "400003", "400004", "400005", "400006", "400007", "400008", "400009"],
      ...["40001", "40002", "40003", "40004", "40005", "40006", "40007", "40008", "40009"],
      ...["400100", "400101", "400102", "400103", "400104"],
    ]);
    expect(prefixesOf(100_000, 999_999)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    expect(prefixesOfPin("560001")).toEqual(["5", "56", "560", "5600", "56000", "560001"]);
  });

  it("the zone form names the bad entry and refuses fewer most days than fewest", () => {
    const issues = (input: Record<string, string>) => zoneSchema.safeParse({ name: "X", fee: "20", daysMin: "3", daysMax: "5", ...input }).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues({ areas: "560, 56A" })).toEqual([["areas", m.areaInvalid("56A")]]);
    expect(issues({ areas: "560", daysMax: "2" })).toEqual([["daysMax", m.daysBackwards]]);
    expect(issues({ areas: "560", fee: "twenty" })).toEqual([["fee", m.feeInvalid]]);
  });
});

describe("the delivery estimate", () => {
  it("counts the most days in dispatch days from today in the shop's time zone: 3 days from a Monday is Thursday", () => {
    expect(deliveredBy(MONDAY_MORNING, "Asia/Kolkata", 3, { closedWeekdays: [], holidays: [] })).toBe("2026-12-03");
    expect(formatDeliveryDay("2026-12-03")).toBe("Thu, 3 Dec");
  });

  it("skips a non-dispatch weekday and a holiday", () => {
    // Tue 1, (Wed 2 a holiday), Thu 3, Fri 4, (Sat 5 and Sun 6 closed), Mon 7.
    expect(deliveredBy(MONDAY_MORNING, "Asia/Kolkata", 4, { closedWeekdays: [0, 6], holidays: ["2026-12-02"] })).toBe("2026-12-07");
  });

  it("starts from the shop's today, not UTC's: 23:00 UTC on Sunday is already Monday in India", () => {
    expect(deliveredBy(Date.parse("2026-11-29T23:00:00Z"), "Asia/Kolkata", 1, { closedWeekdays: [], holidays: [] })).toBe("2026-12-01");
  });

  it("gives up when the shop never dispatches", () => {
    expect(deliveredBy(MONDAY_MORNING, "Asia/Kolkata", 2, { closedWeekdays: [0, 1, 2, 3, 4, 5, 6], holidays: [] })).toBeNull();
  });
});

describe("Cash on Delivery", () => {
  it("is refused where the zone does not take it, and above its limit, with the reason", () => {
    expect(codRefusal({ codAllowed: false, codLimitPaise: null }, 100, "799001")).toBe("Cash on Delivery is not available for 799001.");
    expect(codRefusal({ codAllowed: true, codLimitPaise: 200_000 }, 200_001, "580001")).toBe("Cash on Delivery is available up to Rs. 2,000.00 in this area.");
    expect(codRefusal({ codAllowed: true, codLimitPaise: 200_000 }, 200_000, "580001")).toBeNull();
    expect(codRefusal({ codAllowed: true, codLimitPaise: null }, 10_000_000, "580001")).toBeNull();
  });
});
