import { useRouteLoaderData } from "react-router";
import type { PublicShopConfig } from "../../../server/config.ts";

/**
 * The shop's time zone (SHOP_TIME_ZONE), for the dates a screen shows through `#common/shared/dates.ts`. It comes
 * with the root loader's data, so the server's rendering and the browser's hydration use the same zone; the
 * browser's own zone is never used.
 */
export function useShopTimeZone(): string {
  const root = useRouteLoaderData("root") as { shop?: PublicShopConfig } | undefined;
  const timeZone = root?.shop?.timeZone;
  // Screens render only under a root that loaded (its error screen shows no dates), so this is a wiring mistake.
  if (!timeZone) throw new Error("the shop's time zone is missing from the root loader's data");
  return timeZone;
}
