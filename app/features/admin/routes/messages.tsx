import { Form, isRouteErrorResponse, Link, useNavigation } from "react-router";
import type { ContactMessage } from "#common/contact/contact-types.ts";
import { AdminNav } from "../components/admin-nav.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { ShopTime } from "../../../shared/ui/shop-time.tsx";
import { actionResult, formLevelMessage, loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { readFormFields } from "../../../shared/lib/forms.ts";
import { requireAdmin } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import type { Route } from "./+types/messages";

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, "Messages (admin)");

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const page = await loadOrRefuse(() => context.services.contact.listMessages(admin, query));
  return { ...page, first: !query.cursor };
}

export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const { id, handled } = await readFormFields(request);
  return actionResult(async () => ({ message: await context.services.contact.setHandled(admin, id, { handled }) }));
}

function MessageCard({ message, busy }: { message: ContactMessage; busy: boolean }) {
  const { handledAt } = message;
  const handled = handledAt !== null;
  return (
    <li>
      <article
        aria-labelledby={`message-${message.id}`}
        data-handled={handled}
        className={`rounded-lg border p-4 ${handled ? "border-stone-200 bg-stone-50 text-stone-600" : "border-l-4 border-stone-200 border-l-leaf-700 bg-white shadow-sm"}`}
      >
        <header className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id={`message-${message.id}`} className={`text-lg ${handled ? "font-medium" : "font-bold text-stone-900"}`}>
            {message.subject}
          </h2>
          <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${handled ? "bg-stone-200 text-stone-700" : "bg-leaf-100 text-leaf-900"}`}>
            {handled ? (
              <>
                Handled <ShopTime instant={handledAt} />
              </>
            ) : (
              "Not handled yet"
            )}
          </span>
        </header>
        <p className="mt-1 text-sm">
          From {message.name} &lt;
          <a href={`mailto:${message.email}?subject=${encodeURIComponent(`Re: ${message.subject}`)}`} className="text-leaf-800 underline">
            {message.email}
          </a>
          &gt;, <ShopTime instant={message.createdAt} />
        </p>
        <p className="mt-3 whitespace-pre-line break-words">{message.message}</p>
        <Form method="post" className="mt-3">
          <input type="hidden" name="id" value={message.id} />
          <input type="hidden" name="handled" value={handled ? "false" : "true"} />
          <button type="submit" disabled={busy} className={handled ? "btn-outline" : "btn-primary"}>
            {handled ? "Mark as not handled" : "Mark as handled"}
          </button>
        </Form>
      </article>
    </li>
  );
}

export default function AdminMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { items, filter, nextCursor, first } = loaderData;
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const filterLink = (value: "all" | "unhandled", label: string) => (
    <Link
      to={value === "all" ? "/admin/messages" : "/admin/messages?filter=unhandled"}
      aria-current={filter === value ? "page" : undefined}
      className={`rounded-md px-3 py-1 text-sm font-medium ${filter === value ? "bg-leaf-700 text-white" : "border border-stone-300 text-stone-700 hover:bg-leaf-50"}`}
    >
      {label}
    </Link>
  );
  return (
    <section className="container-page py-10">
      <h1 className="text-3xl font-bold text-stone-900">Messages</h1>
      <AdminNav />
      <nav aria-label="Show" className="mb-6 flex gap-2">
        {filterLink("all", "All messages")}
        {filterLink("unhandled", "Not handled yet")}
      </nav>
      <FormMessage message={formLevelMessage(failure)} />
      {items.length ? (
        <ul className="flex flex-col gap-4">
          {items.map((message) => (
            <MessageCard key={message.id} message={message} busy={navigation.state === "submitting"} />
          ))}
        </ul>
      ) : (
        <p className="text-stone-700">{filter === "unhandled" ? "Every message has been handled." : "No messages yet."}</p>
      )}
      <nav aria-label="Pages" className="mt-6 flex justify-between">
        {first ? <span /> : <Link to={filter === "unhandled" ? "?filter=unhandled" : "?"}>← Newest</Link>}
        {nextCursor ? <Link to={`?${new URLSearchParams({ ...(filter === "unhandled" ? { filter } : {}), cursor: nextCursor })}`}>Older →</Link> : null}
      </nav>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // A page link that no longer works (a forged or stale cursor): say so and offer the newest.
  if (isRouteErrorResponse(error) && error.status === 400) {
    return (
      <section className="container-page py-10">
        <h1 className="text-3xl font-bold text-stone-900">Messages</h1>
        <AdminNav />
        <p className="text-stone-700">{(error.data as { message?: string } | undefined)?.message}</p>
        <Link to="/admin/messages" className="text-leaf-800 underline">
          Newest messages
        </Link>
      </section>
    );
  }
  throw error;
}
