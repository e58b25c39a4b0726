import { Form, Link } from "react-router";
import { AUDIT_THING_KINDS, AUDIT_THING_LABELS, type ActivityEntry } from "#common/audit/audit-schemas.ts";
import { AdminNav } from "../components/admin-nav.tsx";
import { loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { requireAdmin } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import { ShopTime } from "../../../shared/ui/shop-time.tsx";
import type { Route } from "./+types/admin-activity";

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, "Activity (admin)");

const FILTERS = ["actor", "kind", "thing"] as const;

/** The filters of the address (a link's or the form's); the service validates them and the cursor. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const params = new URL(request.url).searchParams;
  const query = Object.fromEntries([...FILTERS, "after"].map((key) => [key, params.get(key) ?? ""]));
  const page = await loadOrRefuse(() => context.services.audit.listActivity(admin, query));
  return { ...page, filters: Object.fromEntries(FILTERS.map((key) => [key, params.get(key) ?? ""])) as Record<(typeof FILTERS)[number], string> };
}

/** An address of this page with these filters (empty ones left out). */
function activityHref(filters: Partial<Record<(typeof FILTERS)[number] | "after", string | null>>): string {
  const params = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const search = params.toString();
  return search ? `/admin/activity?${search}` : "/admin/activity";
}

function Line({ entry }: { entry: ActivityEntry }) {
  return (
    <li className="border-b border-stone-200 py-3" aria-label={entry.summary}>
      <p className="text-stone-900">{entry.summary}</p>
      <p className="text-sm text-stone-600">
        <ShopTime instant={entry.at} /> ·{" "}
        {entry.actor.id ? (
          <Link className="text-leaf-800 underline underline-offset-4" to={activityHref({ actor: entry.actor.id })} title="Only this person's changes">
            {entry.actor.name}
            {entry.actor.email ? ` (${entry.actor.email})` : ""}
          </Link>
        ) : (
          entry.actor.name
        )}
        {entry.clientIp ? ` · from ${entry.clientIp}` : ""} ·{" "}
        {entry.thing.id ? (
          <Link className="text-leaf-800 underline underline-offset-4" to={activityHref({ kind: entry.thing.kind, thing: entry.thing.id })} title={`Only changes to ${entry.thing.label}`}>
            {entry.thing.label}
          </Link>
        ) : (
          entry.thing.label
        )}
      </p>
    </li>
  );
}

export default function AdminActivity({ loaderData }: Route.ComponentProps) {
  const { items, next, filters } = loaderData;
  const filtered = FILTERS.some((key) => filters[key]);
  return (
    <section className="container-page py-10">
      <h1 className="text-3xl font-bold text-stone-900">Activity</h1>
      <AdminNav />
      <p className="mb-4 text-stone-600">Every change an admin made, newest first: who, when, from where and what.</p>
      <Form method="get" className="mb-6 flex flex-wrap items-end gap-3">
        {filters.actor ? <input type="hidden" name="actor" value={filters.actor} /> : null}
        {filters.thing ? <input type="hidden" name="thing" value={filters.thing} /> : null}
        <label className="grid gap-1 text-sm">
          Kind of thing
          <select name="kind" defaultValue={filters.kind} className="rounded border border-stone-300 px-2 py-1">
            <option value="">Everything</option>
            {AUDIT_THING_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {AUDIT_THING_LABELS[kind]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn-outline">
          Show
        </button>
        {filtered ? (
          <Link className="text-sm font-medium text-leaf-800 underline underline-offset-4" to="/admin/activity">
            Show all activity
          </Link>
        ) : null}
      </Form>
      {items.length ? (
        <ol aria-label="Changes">
          {items.map((entry) => (
            <Line key={entry.id} entry={entry} />
          ))}
        </ol>
      ) : (
        <p className="text-stone-600">No changes{filtered ? " match these filters" : " yet"}.</p>
      )}
      {next ? (
        <p className="mt-6">
          <Link className="text-leaf-800 underline underline-offset-4" rel="next" to={activityHref({ ...filters, after: next })}>
            Older
          </Link>
        </p>
      ) : null}
    </section>
  );
}
