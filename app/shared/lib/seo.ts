import type { MetaDescriptor } from "react-router";
import { shareImagePath } from "#common/shared/share-image.ts";
import type { PublicShopConfig } from "../../../server/config.ts";

interface PageSeo {
  /** The page's own title; omitted, the page is titled with the shop's name alone (the home page). */
  title?: string;
  description: string;
  /** Path of the canonical address, e.g. /product/abc. */
  path: string;
  image?: string | undefined;
  type?: "website" | "product";
}

type RootMatch = { id: string; loaderData?: unknown } | undefined;

/** The shop settings the root loader returns, found from any route's meta function. */
export function shopFrom(matches: readonly RootMatch[]): PublicShopConfig | undefined {
  const root = matches.find((m) => m?.id === "root")?.loaderData as { shop?: PublicShopConfig } | undefined;
  return root?.shop;
}

const shopNameFrom = (matches: readonly RootMatch[]) => shopFrom(matches)?.name ?? "Plant Shop";

/** "Cart | Plant Shop": a page's title followed by the configured shop name. */
export function titleWithShop(matches: readonly RootMatch[], title: string): string {
  return `${title} | ${shopNameFrom(matches)}`;
}

/** A page of one person's own (cart, orders, checkout): titled, and kept out of search engines. */
export function privatePageMeta(matches: readonly RootMatch[], title: string): MetaDescriptor[] {
  return [{ title: titleWithShop(matches, title) }, { name: "robots", content: "noindex" }];
}

/** Title, description, canonical link and Open Graph tags for one page. */
export function pageMeta(matches: readonly RootMatch[], page: PageSeo): MetaDescriptor[] {
  const shop = shopFrom(matches);
  const shopName = shopNameFrom(matches);
  const origin = shop?.publicUrl ?? "";
  const title = page.title ? titleWithShop(matches, page.title) : shopName;
  const url = origin + page.path;
  return [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: shopName },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: page.title ?? shopName },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    ...(page.image ? [{ property: "og:image", content: origin + shareImagePath(page.image) }] : []),
    { name: "twitter:card", content: page.image ? "summary_large_image" : "summary" },
  ];
}
