import { describe, expect, it } from "vitest";
import { careLines, careProperties, wateringText } from "./care-labels.ts";
import { EMPTY_CARE_PROFILE } from "./care-profile.ts";

describe("the care card's words", () => {
  it("says the watering with its interval, either half alone, or nothing", () => {
    expect(wateringText({ watering: "When the top 2 cm of soil is dry", waterEveryDays: 7 })).toBe("When the top 2 cm of soil is dry (about every 7 days)");
    expect(wateringText({ watering: "When the top 2 cm of soil is dry", waterEveryDays: null })).toBe("When the top 2 cm of soil is dry");
    expect(wateringText({ watering: null, waterEveryDays: 1 })).toBe("About every day");
    expect(wateringText({ watering: null, waterEveryDays: null })).toBeNull();
  });

  it("has no line for a part not said, and none at all for an empty profile", () => {
    expect(careLines(EMPTY_CARE_PROFILE)).toEqual([]);
    expect(careProperties(EMPTY_CARE_PROFILE)).toEqual([]);
    expect(careLines({ ...EMPTY_CARE_PROFILE, petSafe: "yes", place: "both" }).map((line) => `${line.name}: ${line.text}`)).toEqual(["Pets: Pet-safe", "Where: Indoor or outdoor"]);
  });
});
