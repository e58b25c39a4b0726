import { redirect } from "react-router";
import { redirectWithSession } from "../../../shared/lib/session.ts";
import type { Route } from "./+types/logout";

// Logging out ends the session on the server (a POST, so a link or an image cannot log anybody out).
export async function action({ context }: Route.ActionArgs) {
  if (!context.user) return redirect("/");
  const { session } = await context.services.accounts.signOut(context.request);
  return redirectWithSession(context, "/", session, "loggedOut");
}

export function loader() {
  return redirect("/");
}
