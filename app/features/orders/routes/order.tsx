import { Form, isRouteErrorResponse, Link, useNavigation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { NotFound } from "../../../shared/components/not-found.tsx";
import { OrderHeading, OrderView } from "../components/order-view.tsx";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { readFormFields } from "../../../shared/lib/forms.ts";
import { UpiPayment } from "../components/upi-payment.tsx";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import { actionResult, formLevelMessage, loadOr404 } from "../../../shared/lib/service-errors.ts";
import { redirectWithCookies, requireUser } from "../../../shared/lib/session.ts";
import type { Route } from "./+types/order";

export const meta: Route.MetaFunction = ({ matches, data }) => (data ? privatePageMeta(matches, `Order ${data.number}`) : []);

export function loader({ context, request, params }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  return loadOr404(() => context.services.orders.getOrder(user, params.orderId));
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const form = await readFormFields(request);
  if (form.intent === "upi-reference") {
    return actionResult(() => context.services.orders.giveUpiReference(user, params.orderId, form).then(() => ({ referenceSaved: true as const })));
  }
  // Cancelling cannot be undone: the first press asks again, the second ("confirm") cancels.
  if (form.confirm !== "yes") return { confirming: true as const };
  const result = await actionResult(() => context.services.orders.cancelOrder(user, params.orderId));
  if (!("ok" in result) || !result.ok) return result;
  return redirectWithCookies(context, `/orders/${result.id}`, [], "orderCancelled");
}

export default function Order({ loaderData: order, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const failure = actionData && "ok" in actionData && !actionData.ok ? actionData : undefined;
  const referenceSaved = Boolean(actionData && "referenceSaved" in actionData);
  const confirming = Boolean(actionData && "confirming" in actionData);
  const back = order.viewedByOwner ? { to: "/orders", label: "All your orders" } : { to: `/admin/orders/${order.id}`, label: "Manage this order" };
  return (
    <section className="container-page py-10">
      <OrderHeading order={order} back={back} />
      <FormMessage message={formLevelMessage(failure)} />
      {order.upi ? <UpiPayment order={order} upi={order.upi} referenceError={failure?.fieldErrors.reference} referenceSaved={referenceSaved} /> : null}
      <OrderView order={order} />
      {order.canCancel ? (
        <Form method="post" className="mt-8 flex flex-wrap items-center gap-3">
          {confirming ? (
            <>
              <p role="status" className="w-full text-stone-800">
                {messages.orders.confirmCancel}
              </p>
              <input type="hidden" name="confirm" value="yes" />
              <SubmitButton busy={navigation.state === "submitting"} busyLabel="Cancelling" className="btn-outline">
                Yes, cancel this order
              </SubmitButton>
              <Link to={`/orders/${order.id}`} replace className="btn-primary">
                Keep the order
              </Link>
            </>
          ) : (
            <SubmitButton busy={navigation.state === "submitting"} busyLabel="Asking" className="btn-outline">
              Cancel order
            </SubmitButton>
          )}
        </Form>
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound message={messages.orders.notFound} />;
  throw error;
}
