import { describe, expect, it } from "vitest";
import { pageMeta, privatePageMeta } from "./seo.ts";

const matches = [{ id: "root", loaderData: { shop: { name: "Green Corner", author: "Asha", shippingFeePaise: 2000, publicUrl: "https://plants.example" } } }];

describe("pageMeta", () => {
  it("titles a page with its own title and the shop's name, and links it canonically", () => {
    const meta = pageMeta(matches, { title: "Shop", description: "All plants", path: "/shop" });
    expect(meta).toContainEqual({ title: "Shop | Green Corner" });
    expect(meta).toContainEqual({ property: "og:title", content: "Shop" });
    expect(meta).toContainEqual({ tagName: "link", rel: "canonical", href: "https://plants.example/shop" });
  });

  it("titles the home page with the configured shop name alone", () => {
    const meta = pageMeta(matches, { description: "Plants", path: "/" });
    expect(meta).toContainEqual({ title: "Green Corner" });
    expect(meta).toContainEqual({ property: "og:title", content: "Green Corner" });
  });

  it("titles a private page with the configured shop name and keeps it out of search engines", () => {
    expect(privatePageMeta(matches, "Cart")).toEqual([{ title: "Cart | Green Corner" }, { name: "robots", content: "noindex" }]);
  });
});
