import { Form, isRouteErrorResponse, Link, useNavigation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { NEXT_STATUSES } from "#common/orders/order-types.ts";
import { FormMessage } from "../shared/ui/form-message.tsx";
import { NotFound } from "../shared/components/not-found.tsx";
import { CustomerContact, OrderHeading, OrderView } from "../features/orders/components/order-view.tsx";
import { actionResult, formLevelMessage, loadOr404 } from "../shared/lib/service-errors.ts";
import { requireAdmin } from "../shared/lib/session.ts";
import { AdminNav } from "../features/admin/components/admin-nav.tsx";
import type { Route } from "./+types/admin-order";
import { privatePageMeta } from "../shared/lib/seo.ts";
import { readFormFields } from "../shared/lib/forms.ts";

export const meta: Route.MetaFunction = ({ matches, data }) => (data ? privatePageMeta(matches, `Order ${data.number} (admin)`) : []);

export function loader({ context, request, params }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  return loadOr404(() => context.services.orders.getOrderForAdmin(admin, params.orderId));
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const form = await readFormFields(request);
  return actionResult(async () => ({ order: await context.services.orders.setStatus(admin, params.orderId, form) }));
}

export default function AdminOrder({ loaderData: order, actionData }: Route.ComponentProps) {
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
            <button key={status} type="submit" name="status" value={status} disabled={navigation.state === "submitting"} className={status === "cancelled" ? "btn-outline" : "btn-primary"}>
              {status === "cancelled" ? "Cancel order" : `Mark ${status}`}
            </button>
          ))}
        </Form>
      ) : null}
      <OrderView order={order} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound message={messages.orders.notFound} />;
  throw error;
}
