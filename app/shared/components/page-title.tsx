import { useRouteLoaderData } from "react-router";
import type { PublicShopConfig } from "../../../server/config.ts";

/** A page title rendered by a component (error screens have no meta of their own): "Title | Shop name". */
export function PageTitle({ title }: { title: string }) {
  const root = useRouteLoaderData("root") as { shop?: PublicShopConfig } | undefined;
  return <title>{`${title} | ${root?.shop?.name ?? "Plant Shop"}`}</title>;
}
