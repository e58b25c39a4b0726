import { Form, isRouteErrorResponse, Link, useNavigation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { NEXT_STATUSES, type CodStanding, type OrderStatus } from "#common/orders/order-types.ts";
import { FormMessage } from "../shared/ui/form-message.tsx";
import { NotFound } from "../shared/components/not-found.tsx";
import { CustomerContact, OrderHeading, OrderView } from "../features/orders/components/order-view.tsx";
import { actionResult, formLevelMessage, loadOr404 } from "../shared/lib/service-errors.ts";
import { requireAdmin } from "../shared/lib/session.ts";
import { AdminNav } from "../features/admin/components/admin-nav.tsx";
import type { Route } from "./+types/admin-order";
import { privatePageMeta } from "../shared/lib/seo.ts";
import { readFormFields } from "../shared/lib/forms.ts";

export const meta: Route.MetaFunction = ({ matches, data }) => (data ? privatePageMeta(matches, `Order ${data.order.number} (admin)`) : []);

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { orders } = context.services;
  const [order, cod] = await Promise.all([loadOr404(() => orders.getOrderForAdmin(admin, params.orderId)), loadOr404(() => orders.codStanding(admin, params.orderId))]);
  return { order, cod };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const form = await readFormFields(request);
  const { orders } = context.services;
  if (form.intent === "cod") return actionResult(async () => ({ cod: await orders.setCodBlocked(admin, params.orderId, form) }));
  return actionResult(async () => ({ order: await orders.setStatus(admin, params.orderId, form) }));
}

/** What the button moving an order to `status` says: a UPI order's payment confirmed or not, a parcel refused at the door. */
function moveLabel(from: OrderStatus, status: OrderStatus): string {
  if (from === "awaiting_payment") return status === "pending" ? messages.payments.markPaid : messages.payments.notReceived;
  if (status === "refused") return messages.payments.markRefused;
  return status === "cancelled" ? "Cancel order" : `Mark ${status}`;
}

export default function AdminOrder({ loaderData: { order, cod }, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  return (
    <section className="container-page py-10">
      <AdminNav />
      <OrderHeading order={order} back={{ to: "/admin/orders", label: "All orders" }} />
      <p className="mb-6 text-stone-800">
        Customer: <CustomerContact customer={order.customer} />
      </p>
      <p className="mb-6">
        <Link to={`/admin/orders/${order.id}/packing-slip`} className="btn-outline">
          {messages.gifts.printSlip}
        </Link>
      </p>
      <FormMessage message={formLevelMessage(failure)} />
      {NEXT_STATUSES[order.status].length ? (
        <Form method="post" className="mb-8 flex flex-wrap items-center gap-3">
          <span className="font-medium text-stone-800">Move to:</span>
          {NEXT_STATUSES[order.status].map((status) => (
            <button
              key={status}
              type="submit"
              name="status"
              value={status}
              disabled={navigation.state === "submitting"}
              className={status === "cancelled" || status === "refused" ? "btn-outline" : "btn-primary"}
            >
              {moveLabel(order.status, status)}
            </button>
          ))}
        </Form>
      ) : null}
      {cod ? <CodRule standing={cod} busy={navigation.state === "submitting"} /> : null}
      <OrderView order={order} />
    </section>
  );
}

/** The customer's record with Cash on Delivery, and the owner's switch for it (a refused parcel costs the shipping twice). */
function CodRule({ standing, busy }: { standing: CodStanding; busy: boolean }) {
  const m = messages.payments;
  return (
    <Form method="post" className="mb-8 flex flex-wrap items-center gap-3 rounded-lg border border-stone-200 p-4">
      <input type="hidden" name="intent" value="cod" />
      <input type="hidden" name="blocked" value={String(!standing.codBlocked)} />
      <p className="text-stone-800">
        {m.refusedParcels(standing.refusedParcels)} {standing.codBlocked ? m.codOffForShopper : m.codOnForShopper}
      </p>
      <button type="submit" disabled={busy} className="btn-outline">
        {standing.codBlocked ? m.turnCodOn : m.turnCodOff}
      </button>
    </Form>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound message={messages.orders.notFound} />;
  throw error;
}
