import { Form, useNavigation } from "react-router";
import { SECURITY_EVENT_LABELS } from "#common/accounts/security-events.ts";
import { messages } from "#common/shared/messages.ts";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { ShopTime } from "../../../shared/ui/shop-time.tsx";
import { actionResult, loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { readFormFields } from "../../../shared/lib/forms.ts";
import { requireUser } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import type { Route } from "./+types/security";

const m = messages.security;

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, "Sign-in and security");

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  return loadOrRefuse(() => context.services.accounts.securityOverview(user, context.request));
}

export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const fields = await readFormFields(request);
  if (fields.intent === "end-others") {
    return actionResult(async () => {
      const { ended } = await context.services.accounts.endOtherSessions(user, context.request);
      return { message: m.otherSessionsEnded(ended) };
    });
  }
  return actionResult(async () => {
    const { device } = await context.services.accounts.endSession(user, context.request, fields);
    return { message: m.sessionEnded(device) };
  });
}

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
  const { sessions, activity, lastUseStepMinutes } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const others = sessions.filter((session) => !session.current).length;
  return (
    <section className="container-page max-w-3xl py-12">
      <h1 className="text-3xl font-bold text-stone-900">Sign-in and security</h1>
      <div className="mt-6">
        {actionData ? <FormMessage message={actionData.message} tone={actionData.ok ? "success" : "error"} /> : null}
      </div>

      <h2 className="mt-8 text-xl font-semibold text-stone-900">Where you are signed in</h2>
      <p className="mt-1 text-sm text-stone-600">{m.lastUseNote(lastUseStepMinutes)}</p>
      <ul aria-label="Sessions" className="mt-4 divide-y divide-stone-200 rounded-2xl border border-stone-200">
        {sessions.map((session) => (
          <li key={session.id} data-testid="session" className="flex flex-wrap items-center gap-4 p-4">
            <div className="flex-1">
              <p className="font-semibold text-stone-900">
                {session.device}
                {session.current ? <span className="ml-2 rounded-full bg-leaf-100 px-2 py-0.5 text-xs font-semibold text-leaf-900">This device</span> : null}
              </p>
              <p className="text-sm text-stone-600">
                {session.ip ? `From ${session.ip} · ` : ""}Signed in <ShopTime instant={session.createdAt} /> · Last used{" "}
                {session.usedRecently ? m.usedRecently(lastUseStepMinutes) : <ShopTime instant={session.lastUsedAt} />}
              </p>
            </div>
            {session.current ? null : (
              <Form method="post">
                <input type="hidden" name="sessionId" value={session.id} />
                <button type="submit" disabled={busy} className="btn-outline" aria-label={`End the session on ${session.device}`}>
                  End
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="end-others" />
          <button type="submit" disabled={busy} className="btn-primary">
            End all other sessions
          </button>
        </Form>
      ) : (
        <p className="mt-4 text-sm text-stone-600">{m.onlyThisDevice}</p>
      )}

      <h2 className="mt-12 text-xl font-semibold text-stone-900">Recent activity</h2>
      {activity.length === 0 ? (
        <p className="mt-4 text-stone-700">{m.noActivity}</p>
      ) : (
        <table className="mt-4 w-full text-left text-sm">
          <thead className="text-stone-600">
            <tr>
              <th scope="col" className="py-2 pr-4 font-semibold">When</th>
              <th scope="col" className="py-2 pr-4 font-semibold">What</th>
              <th scope="col" className="py-2 pr-4 font-semibold">Address</th>
              <th scope="col" className="py-2 font-semibold">Device</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-200">
            {activity.map((event) => (
              <tr key={event.id} data-testid="activity">
                <td className="py-2 pr-4">
                  <ShopTime instant={event.createdAt} />
                </td>
                <td className="py-2 pr-4">
                  {SECURITY_EVENT_LABELS[event.kind]}
                  {event.method ? ` (${event.method})` : ""}
                </td>
                <td className="py-2 pr-4">{event.ip ?? "—"}</td>
                <td className="py-2">{event.device}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
