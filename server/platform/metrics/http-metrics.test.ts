import { describe, expect, it } from "vitest";
import { routeOfPath } from "./http-metrics.ts";
import { bearerMatches } from "./metrics-endpoint.ts";

describe("routeOfPath", () => {
  it("names a path by one of a few fixed labels, never by the path itself, a page's data request as a page", () => {
    expect(routeOfPath("/product/3f1c?size=large")).toBe("page");
    expect(routeOfPath("/")).toBe("page");
    expect(routeOfPath("/media/abc.webp")).toBe("media");
    expect(routeOfPath("/assets/root-Ab12.js")).toBe("asset");
    expect(routeOfPath("/favicon.svg")).toBe("asset");
    expect(routeOfPath("/admin/products/import.data")).toBe("page");
    expect(routeOfPath("/_root.data?_routes=root")).toBe("page");
    expect(routeOfPath("/healthz")).toBe("health");
    expect(routeOfPath("/readyz")).toBe("health");
    expect(routeOfPath("/metrics")).toBe("metrics");
    // An /api request no route labelled (the API's own routes are labelled by their pattern).
    expect(routeOfPath("/api/anything/at/all")).toBe("/api/*");
    expect(routeOfPath(undefined)).toBe("page");
  });
});

describe("bearerMatches", () => {
  const token = "t".repeat(40);
  it("accepts exactly 'Bearer <token>' and refuses any other header", () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
    for (const header of [undefined, "", token, `Bearer ${token}x`, `Bearer ${token.slice(1)}`, `Basic ${token}`, "Bearer "]) {
      expect(bearerMatches(header, token), String(header)).toBe(false);
    }
  });
});
