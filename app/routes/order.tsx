import { Form, isRouteErrorResponse, useNavigation } from "react-router";
import { messages } from "#common/messages.ts";
import { FormMessage } from "../components/form-message.tsx";
import { NotFound } from "../components/not-found.tsx";
import { OrderHeading, OrderView } from "../components/order-view.tsx";
import { SubmitButton } from "../components/ui/submit-button.tsx";
import { actionResult, formLevelMessage, loadOr404 } from "../lib/service-errors.ts";
import { redirectWithCookies, requireUser } from "../lib/session.ts";
import type { Route } from "./+types/order";
import { privatePageMeta } from "../lib/seo.ts";

export const meta: Route.MetaFunction = ({ matches, data }) => (data ? privatePageMeta(matches, `Order ${data.number}`) : []);

export function loader({ context, request, params }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  return loadOr404(() => context.services.orders.getOrder(user, params.orderId));
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const result = await actionResult(() => context.services.orders.cancelOrder(user, params.orderId));
  if (!("ok" in result) || !result.ok) return result;
  return redirectWithCookies(`/orders/${result.id}`, [], "orderCancelled");
}

export default function Order({ loaderData: order, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  return (
    <section className="container-page py-10">
      <OrderHeading order={order} back={{ to: "/orders", label: "All your orders" }} />
      <FormMessage message={formLevelMessage(failure)} />
      <OrderView order={order} />
      {order.canCancel ? (
        <Form method="post" className="mt-8">
          <SubmitButton busy={navigation.state === "submitting"} busyLabel="Cancelling" className="btn-outline">
            Cancel order
          </SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound message={messages.orders.notFound} />;
  throw error;
}
