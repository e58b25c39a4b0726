import { describe, expect, it } from "vitest";
import { finderDestination, finderReason, finderWasAnswered } from "./plant-finder.ts";

const query = (destination: string) => new URL(destination, "http://shop.test").searchParams;

describe("the plant finder's answers", () => {
  it("turns a dim room with pets into the low-light and pet-safe filters of the shop list, marked as the finder's", () => {
    const destination = finderDestination({ "room-light": "dim", "pets-at-home": "yes", "time-for-care": "plenty", "where-it-lives": "either" });
    expect(destination.startsWith("/shop?")).toBe(true);
    const search = query(destination);
    expect(search.getAll("light")).toEqual(["low"]);
    expect(search.getAll("pets")).toEqual(["safe"]);
    expect(search.has("care")).toBe(false);
    expect(search.has("place")).toBe(false);
    expect(search.get("finder")).toBe("1");
  });

  it("asks for every light level a bright room suits and both easy care levels for some care", () => {
    const search = query(finderDestination({ "room-light": "bright", "time-for-care": "some", "where-it-lives": "indoor" }));
    expect(search.getAll("light")).toEqual(["medium", "bright-indirect"]);
    expect(search.getAll("care")).toEqual(["beginner", "intermediate"]);
    expect(search.getAll("place")).toEqual(["indoor"]);
  });

  it("treats unknown answers as the question's default, which narrows nothing", () => {
    const search = query(finderDestination({ "room-light": "<script>", "pets-at-home": "maybe" }));
    expect([...search.keys()]).toEqual(["finder"]);
  });

  it("counts the form as answered only when one of its questions is in the address", () => {
    expect(finderWasAnswered({})).toBe(false);
    expect(finderWasAnswered({ utm_source: "mail" })).toBe(false);
    expect(finderWasAnswered({ "pets-at-home": "no" })).toBe(true);
  });
});

describe("why the finder's list shows these plants", () => {
  it("says each narrowing answer in the questions' order, read back from the list's filters", () => {
    const search = query(finderDestination({ "room-light": "dim", "pets-at-home": "yes", "time-for-care": "little", "where-it-lives": "indoor" }));
    expect(finderReason(search)).toBe("These plants cope with low light, are safe for pets, are easy for beginners and grow indoors, from what you told us.");
  });

  it("says one reason alone without a list", () => {
    expect(finderReason(query(finderDestination({ "pets-at-home": "yes" })))).toBe("These plants are safe for pets, from what you told us.");
  });

  it("says every plant is shown when no answer narrowed the list", () => {
    expect(finderReason(query(finderDestination({ "room-light": "unsure" })))).toBe("You told us anything goes, so here is every plant we sell.");
  });

  it("says nothing on a list the finder did not make", () => {
    expect(finderReason(new URLSearchParams("light=low&pets=safe"))).toBeNull();
  });

  it("follows a filter changed on the list to another answer's, so the sentence says what the list shows", () => {
    const search = query(finderDestination({ "room-light": "dim" }));
    search.set("light", "direct-sun");
    expect(finderReason(search)).toBe("These plants love direct sun, from what you told us.");
  });

  it("drops a reason whose filter was changed on the list to one no answer gives, keeping the others", () => {
    const search = query(finderDestination({ "room-light": "dim", "pets-at-home": "yes" }));
    search.set("light", "medium");
    expect(finderReason(search)).toBe("These plants are safe for pets, from what you told us.");
  });
});
