import { data, Link } from "react-router";
import { idSchema } from "#common/shared/fields.ts";
import { messages } from "#common/shared/messages.ts";
import { isUserFacingError } from "#common/shared/user-facing-error.ts";
import { rememberPin } from "../../../shared/lib/pin-cookie.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import { DeliveryCheck, type DeliveryCheckResult } from "../components/delivery-check.tsx";
import type { Route } from "./+types/check-delivery";

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, messages.delivery.checkHeading);

/**
 * 'Check delivery' for a PIN code (`?pin=`): the product page's box loads this inline once the page runs, and a
 * browser without JavaScript comes here by the same form and gets the answer as a page, with the way back to the
 * plant (`?product=`). A checked code is remembered in a cookie for the checkout; the answer is nobody else's.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const product = idSchema.safeParse(params.get("product"));
  const productId = product.success ? product.data : null;
  if (!params.has("pin")) return data({ productId, result: null }, { headers: { "Cache-Control": "private, no-store" } });
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  let result: DeliveryCheckResult;
  try {
    const answer = await context.services.delivery.checkDelivery({ pin: params.get("pin") });
    headers.append("Set-Cookie", rememberPin(answer.pin, request));
    result = { ok: true, answer };
  } catch (error) {
    if (!isUserFacingError(error)) throw error;
    // A PIN code that is not one is an answer to show under the field, not an error page.
    result = { ok: false, message: error.message, fieldErrors: error.fieldErrors ?? {} };
  }
  return data({ productId, result }, { headers });
}

export default function CheckDeliveryPage({ loaderData }: Route.ComponentProps) {
  const { productId, result } = loaderData;
  return (
    <section className="container-page max-w-xl py-10">
      <h1 className="mb-6 text-3xl font-bold text-stone-900">{messages.delivery.checkHeading}</h1>
      <DeliveryCheck productId={productId} result={result} />
      {productId ? (
        <Link to={`/product/${productId}`} className="mt-6 inline-block font-semibold text-leaf-800 underline underline-offset-4">
          {messages.delivery.backToPlant("the plant")}
        </Link>
      ) : null}
    </section>
  );
}
