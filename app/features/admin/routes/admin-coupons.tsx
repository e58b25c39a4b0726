import { Form, Link, useNavigation } from "react-router";
import { couponMessages as m } from "#common/coupons/coupon-messages.ts";
import type { Coupon, CouponFormValues } from "#common/coupons/coupon-types.ts";
import { formatPriceExact } from "#common/shared/money.ts";
import { AdminNav } from "../components/admin-nav.tsx";
import { EditorOutcome } from "../components/editor-outcome.tsx";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { ShopTime } from "../../../shared/ui/shop-time.tsx";
import { actionResult, formLevelMessage, loadOr404, loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { readForm } from "../../../shared/lib/forms.ts";
import { requireAdmin } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import type { Route } from "./+types/admin-coupons";

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, "Coupons (admin)");

/**
 * The most categories the form offers as checkboxes: a nursery keeps tens, and a page of them stays readable up to a
 * few hundred (docs/decisions/046, "The category choice").
 */
const CATEGORY_CHOICES_MAX = 500;

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const params = new URL(request.url).searchParams;
  const paging = { after: params.get("after") ?? undefined, before: params.get("before") ?? undefined };
  const page = await loadOrRefuse(() => context.services.coupons.listCoupons(admin, paging));
  const editId = params.get("edit");
  const editing = editId ? await loadOr404(() => context.services.coupons.getCouponForEditing(admin, editId)) : null;
  const choices = await context.services.catalog.listCategoryChoices(CATEGORY_CHOICES_MAX);
  // A code being edited always offers its own categories, even past the cap.
  const extra = (editing?.coupon.categories ?? []).filter((c) => !choices.items.some((k) => k.id === c.id));
  const categories = [...choices.items, ...extra].sort((a, b) => a.name.localeCompare(b.name));
  return { ...page, editing, categories, moreCategories: choices.more, paging };
}

/** One form per intent: make or edit a code, pause or resume one, delete one. Every rule and the admin check are in the service. */
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
  const categoryIds = form.getAll("categoryIds");
  if (fields.intent === "update") {
    // Kept to fill the form again as typed after a refusal (a browser without JavaScript gets a new page).
    const typed = { ...Object.fromEntries([...form].filter(([, v]) => typeof v === "string")), categoryIds: categoryIds.map(String) } as Record<string, string | string[]>;
    return actionResult(async () => ({ notice: m.updated((await coupons.updateCoupon(admin, fields.id, { ...fields, categoryIds })).code) }), { intent: "update", typed });
  }
  return actionResult(async () => ({ notice: m.created((await coupons.createCoupon(admin, { ...fields, categoryIds })).code) }), { intent: "create" });
}

function describeCoupon(coupon: Coupon): string {
  const amount = coupon.kind === "percent" ? `${coupon.amount}% off` : `${formatPriceExact(coupon.amount)} off`;
  const parts = [amount];
  if (coupon.categories.length) parts.push(`on ${coupon.categories.map((c) => c.name).join(", ")} only`);
  if (coupon.minSubtotalPaise !== null) parts.push(`from ${formatPriceExact(coupon.minSubtotalPaise)}`);
  if (coupon.oncePerCustomer) parts.push("once per customer");
  return parts.join(", ");
}

/** The page's address with these query parameters changed (null removes one). */
function linkWith(paging: { after: string | undefined; before: string | undefined }, changes: Record<string, string | null>): string {
  const params = new URLSearchParams();
  if (paging.after) params.set("after", paging.after);
  if (paging.before) params.set("before", paging.before);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  return query ? `?${query}` : "?";
}

const EMPTY_FORM: CouponFormValues = { code: "", kind: "percent", value: "", minSubtotal: "", startsAt: "", endsAt: "", maxUses: "", oncePerCustomer: false, categoryIds: [] };

/** The values a refused edit was sent with, read back as the form's fields. */
function typedValues(typed: Record<string, string | string[]>): CouponFormValues {
  const text = (key: string) => (typeof typed[key] === "string" ? typed[key] : "");
  return {
    code: text("code"),
    kind: text("kind") === "amount" ? "amount" : "percent",
    value: text("value"),
    minSubtotal: text("minSubtotal"),
    startsAt: text("startsAt"),
    endsAt: text("endsAt"),
    maxUses: text("maxUses"),
    oncePerCustomer: text("oncePerCustomer") === "on",
    categoryIds: Array.isArray(typed.categoryIds) ? typed.categoryIds : [],
  };
}

export default function AdminCoupons({ loaderData, actionData }: Route.ComponentProps) {
  const { coupons, nextCursor, previousCursor, editing, categories, moreCategories, paging } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const formFailure = failure && failure.intent === (editing ? "update" : "create") ? failure : undefined;
  const errors: Record<string, string> = formFailure?.fieldErrors ?? {};
  const notice = actionData?.ok ? actionData.notice : null;
  const values = editing ? (formFailure && "typed" in formFailure ? typedValues(formFailure.typed as Record<string, string | string[]>) : editing.form) : EMPTY_FORM;
  const title = editing ? `Edit coupon ${editing.coupon.code}` : "New coupon";
  return (
    <section className="container-page py-10">
      <h1 className="text-3xl font-bold text-stone-900">{m.heading}</h1>
      <AdminNav />
      <EditorOutcome notice={notice} refusedChange={failure?.intent === "change" ? failure.message : null} />
      <div className="grid items-start gap-8 lg:grid-cols-[1fr_22rem]">
        <div>
          {coupons.length ? (
            <table className="data-table w-full text-left text-sm">
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
                    <td className="flex flex-wrap gap-2 py-2">
                      <Link to={linkWith(paging, { edit: coupon.id })} className="btn-outline">
                        Edit {coupon.code}
                      </Link>
                      {/* Posted to the list without the edit form: a deleted code has nothing left to edit. */}
                      <Form method="post" action={linkWith(paging, { edit: null })}>
                        <input type="hidden" name="id" value={coupon.id} />
                        <button type="submit" name="intent" value={coupon.paused ? "resume" : "pause"} disabled={busy} className="btn-outline">
                          {coupon.paused ? `Resume ${coupon.code}` : `Pause ${coupon.code}`}
                        </button>
                      </Form>
                      <Form method="post" action={linkWith(paging, { edit: null })}>
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
          {previousCursor || nextCursor ? (
            <nav aria-label="Coupon pages" className="mt-4 flex gap-4">
              {previousCursor ? (
                <Link to={linkWith(paging, { before: previousCursor, after: null, edit: null })} className="text-leaf-800 underline underline-offset-4">
                  ← Previous page
                </Link>
              ) : null}
              {nextCursor ? (
                <Link to={linkWith(paging, { after: nextCursor, before: null, edit: null })} className="text-leaf-800 underline underline-offset-4">
                  Next page →
                </Link>
              ) : null}
            </nav>
          ) : null}
        </div>
        {/* Made afresh after each save (a new code empties it, an edit shows the stored terms); kept as typed after a refusal. */}
        <Form
          key={`${editing?.coupon.id ?? "new"}:${notice ?? ""}`}
          method="post"
          noValidate
          className="grid gap-3 rounded-2xl border border-stone-200 p-6"
          aria-labelledby="coupon-form-title"
        >
          <h2 id="coupon-form-title" className="text-xl font-semibold text-stone-900">
            {title}
          </h2>
          <input type="hidden" name="intent" value={editing ? "update" : "create"} />
          {editing ? <input type="hidden" name="id" value={editing.coupon.id} /> : null}
          <FormMessage message={formLevelMessage(formFailure)} />
          <FormField label="Code" name="code" autoComplete="off" defaultValue={values.code} error={errors.code} />
          <fieldset>
            <legend className="field-label">Kind</legend>
            <label className="mr-4">
              <input type="radio" name="kind" value="percent" defaultChecked={values.kind === "percent"} className="accent-leaf-700" /> Percent
            </label>
            <label>
              <input type="radio" name="kind" value="amount" defaultChecked={values.kind === "amount"} className="accent-leaf-700" /> Amount (Rs.)
            </label>
            {errors.kind ? <p className="text-sm text-red-700">{errors.kind}</p> : null}
          </fieldset>
          <FormField label="Percent or amount" name="value" inputMode="decimal" defaultValue={values.value} error={errors.value} />
          <FormField label="Minimum subtotal (Rs., optional)" name="minSubtotal" inputMode="decimal" defaultValue={values.minSubtotal} error={errors.minSubtotal} />
          <FormField label="Starts (optional)" name="startsAt" type="datetime-local" defaultValue={values.startsAt} error={errors.startsAt} />
          <FormField label="Ends (optional)" name="endsAt" type="datetime-local" defaultValue={values.endsAt} error={errors.endsAt} />
          <FormField label="Total uses (optional)" name="maxUses" inputMode="numeric" defaultValue={values.maxUses} error={errors.maxUses} />
          <label className="flex items-center gap-2">
            {/* An unticked box sends nothing: the hidden field says "no", so an edit can turn it off. */}
            {editing ? <input type="hidden" name="oncePerCustomer" value="false" /> : null}
            <input type="checkbox" name="oncePerCustomer" defaultChecked={values.oncePerCustomer} className="size-4 accent-leaf-700" /> Once per customer
          </label>
          {categories.length ? (
            <fieldset>
              <legend className="field-label">Only these categories (optional)</legend>
              {categories.map((category) => (
                <label key={category.id} className="mr-4 inline-flex items-center gap-1">
                  <input type="checkbox" name="categoryIds" value={category.id} defaultChecked={values.categoryIds.includes(category.id)} className="accent-leaf-700" />{" "}
                  {category.name}
                </label>
              ))}
              {moreCategories ? <p className="text-sm text-stone-600">The first {categories.length} categories are shown.</p> : null}
              {errors.categoryIds ? <p className="text-sm text-red-700">{errors.categoryIds}</p> : null}
            </fieldset>
          ) : null}
          <button type="submit" disabled={busy} className="btn-primary">
            {editing ? "Save coupon" : "Create coupon"}
          </button>
          {editing ? (
            <Link to={linkWith(paging, { edit: null })} className="text-center text-leaf-800 underline underline-offset-4">
              Cancel editing
            </Link>
          ) : null}
        </Form>
      </div>
    </section>
  );
}
