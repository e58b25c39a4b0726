import { describe, expect, it } from "vitest";
import { oneClickUnsubscribeHeaders } from "./list-unsubscribe.ts";

describe("oneClickUnsubscribeHeaders", () => {
  it("names an https link in angle brackets and offers it for one click", () => {
    expect(oneClickUnsubscribeHeaders("https://plants.example/alerts/unsubscribe?token=abc_-1")).toEqual({
      "List-Unsubscribe": "<https://plants.example/alerts/unsubscribe?token=abc_-1>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });

  it("names a plain http link alone, since one click is for https links only", () => {
    expect(oneClickUnsubscribeHeaders("http://localhost:3000/alerts/unsubscribe?token=abc")).toEqual({ "List-Unsubscribe": "<http://localhost:3000/alerts/unsubscribe?token=abc>" });
  });
});
