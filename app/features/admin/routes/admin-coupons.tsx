import { Form, useNavigation } from "react-router";
import { couponMessages as m } from "#common/coupons/coupon-messages.ts";
import type { Coupon } from "#common/coupons/coupon-types.ts";
import { formatPriceExact } from "#common/shared/money.ts";
import { AdminNav } from "../components/admin-nav.tsx";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { ShopTime } from "../../../shared/ui/shop-time.tsx";
import { actionResult, formLevelMessage, loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { readForm } from "../../../shared/lib/forms.ts";
import { requireAdmin } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import type { Route } from "./+types/admin-coupons";

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, "Coupons (admin)");

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const coupons = await loadOrRefuse(() => context.services.coupons.listCoupons(admin));
  // The categories a code may be limited to: the shop keeps a few (the first page of the list).
  const categories = await loadOrRefuse(() => context.services.catalog.listCategories());
  return { coupons, categories: categories.items.map((c) => ({ id: c.id, name: c.name })) };
}

/** One form per intent: make a code, pause or resume one, delete one. Every rule and the admin check are in the service. */
export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const form = await readForm(request);
  const fields = Object.fromEntries(form);
  const { coupons } = context.services;
  if (fields.intent === "pause" || fields.intent === "resume") {
    const paused = fields.intent === "pause";
    return actionResult(async () => ({ notice: (paused ? m.paused : m.resumed)((await coupons.setCouponPaused(admin, fields.id, { paused })).code) }), { intent: "change" });
  }
  if (fields.intent === "delete") return actionResult(async () => ({ notice: m.deleted((await coupons.deleteCoupon(admin, fields.id)).code) }), { intent: "change" });
  return actionResult(async () => ({ notice: m.created((await coupons.createCoupon(admin, { ...fields, categoryIds: form.getAll("categoryIds") })).code) }), { intent: "create" });
}

function describeCoupon(coupon: Coupon): string {
  const amount = coupon.kind === "percent" ? `${coupon.amount}% off` : `${formatPriceExact(coupon.amount)} off`;
  const parts = [amount];
  if (coupon.categories.length) parts.push(`on ${coupon.categories.map((c) => c.name).join(", ")} only`);
  if (coupon.minSubtotalPaise !== null) parts.push(`from ${formatPriceExact(coupon.minSubtotalPaise)}`);
  if (coupon.oncePerCustomer) parts.push("once per customer");
  return parts.join(", ");
}

export default function AdminCoupons({ loaderData, actionData }: Route.ComponentProps) {
  const { coupons, categories } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const createFailure = failure?.intent === "create" ? failure : undefined;
  const errors: Record<string, string> = createFailure?.fieldErrors ?? {};
  const notice = actionData?.ok ? actionData.notice : null;
  return (
    <section className="container-page py-10">
      <h1 className="text-3xl font-bold text-stone-900">{m.heading}</h1>
      <AdminNav />
      {notice ? (
        <p role="status" className="mb-4 rounded-lg border border-leaf-200 bg-leaf-50 px-4 py-3 text-leaf-900">
          {notice}
        </p>
      ) : null}
      {failure?.intent === "change" ? <FormMessage message={failure.message} /> : null}
      <div className="grid items-start gap-8 lg:grid-cols-[1fr_22rem]">
        <div>
          {coupons.length ? (
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b border-stone-300">
                  <th className="py-2">Code</th>
                  <th>Discount</th>
                  <th>Valid</th>
                  <th>Uses</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {coupons.map((coupon) => (
                  <tr key={coupon.id} aria-label={coupon.code} className="border-b border-stone-200 align-top">
                    <td className="py-2 font-mono font-semibold">
                      {coupon.code}
                      {coupon.paused ? <span className="ml-2 rounded-full bg-stone-200 px-2 text-xs font-sans">Paused</span> : null}
                    </td>
                    <td>{describeCoupon(coupon)}</td>
                    <td>
                      {coupon.startsAt ? (
                        <>
                          from <ShopTime instant={coupon.startsAt} />{" "}
                        </>
                      ) : null}
                      {coupon.endsAt ? (
                        <>
                          until <ShopTime instant={coupon.endsAt} />
                        </>
                      ) : null}
                      {!coupon.startsAt && !coupon.endsAt ? "Always" : null}
                    </td>
                    <td data-testid="coupon-uses">{coupon.maxUses === null ? `${coupon.usedCount}` : `${coupon.usedCount} of ${coupon.maxUses}`}</td>
                    <td className="flex gap-2 py-2">
                      <Form method="post">
                        <input type="hidden" name="id" value={coupon.id} />
                        <button type="submit" name="intent" value={coupon.paused ? "resume" : "pause"} disabled={busy} className="btn-outline">
                          {coupon.paused ? `Resume ${coupon.code}` : `Pause ${coupon.code}`}
                        </button>
                      </Form>
                      <Form method="post">
                        <input type="hidden" name="id" value={coupon.id} />
                        <button type="submit" name="intent" value="delete" disabled={busy} className="btn-outline text-red-700">
                          Delete {coupon.code}
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="text-stone-700">{m.none}</p>
          )}
        </div>
        {/* Made afresh (emptied) after each code made; kept as typed after a refusal. */}
        <Form key={notice ?? "new"} method="post" noValidate className="grid gap-3 rounded-2xl border border-stone-200 p-6" aria-labelledby="new-coupon">
          <h2 id="new-coupon" className="text-xl font-semibold text-stone-900">
            New coupon
          </h2>
          <input type="hidden" name="intent" value="create" />
          <FormMessage message={formLevelMessage(createFailure)} />
          <FormField label="Code" name="code" autoComplete="off" error={errors.code} />
          <fieldset>
            <legend className="field-label">Kind</legend>
            <label className="mr-4">
              <input type="radio" name="kind" value="percent" defaultChecked className="accent-leaf-700" /> Percent
            </label>
            <label>
              <input type="radio" name="kind" value="amount" className="accent-leaf-700" /> Amount (Rs.)
            </label>
            {errors.kind ? <p className="text-sm text-red-700">{errors.kind}</p> : null}
          </fieldset>
          <FormField label="Percent or amount" name="value" inputMode="decimal" error={errors.value} />
          <FormField label="Minimum subtotal (Rs., optional)" name="minSubtotal" inputMode="decimal" error={errors.minSubtotal} />
          <FormField label="Starts (optional)" name="startsAt" type="datetime-local" error={errors.startsAt} />
          <FormField label="Ends (optional)" name="endsAt" type="datetime-local" error={errors.endsAt} />
          <FormField label="Total uses (optional)" name="maxUses" inputMode="numeric" error={errors.maxUses} />
          <label className="flex items-center gap-2">
            <input type="checkbox" name="oncePerCustomer" className="size-4 accent-leaf-700" /> Once per customer
          </label>
          {categories.length ? (
            <fieldset>
              <legend className="field-label">Only these categories (optional)</legend>
              {categories.map((category) => (
                <label key={category.id} className="mr-4 inline-flex items-center gap-1">
                  <input type="checkbox" name="categoryIds" value={category.id} className="accent-leaf-700" /> {category.name}
                </label>
              ))}
              {errors.categoryIds ? <p className="text-sm text-red-700">{errors.categoryIds}</p> : null}
            </fieldset>
          ) : null}
          <button type="submit" disabled={busy} className="btn-primary">
            Create coupon
          </button>
        </Form>
      </div>
    </section>
  );
}
