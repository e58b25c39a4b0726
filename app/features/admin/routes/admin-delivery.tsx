import { Form, Link, useNavigation } from "react-router";
import { WEEKDAY_NAMES } from "#common/delivery/delivery-estimate.ts";
import type { DeliveryZone } from "#common/delivery/delivery-schemas.ts";
import { formatPriceExact } from "#common/shared/money.ts";
import { messages } from "#common/shared/messages.ts";
import { AdminNav } from "../components/admin-nav.tsx";
import { EditorOutcome } from "../components/editor-outcome.tsx";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { actionResult, formLevelMessage, loadOr404, loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { readForm } from "../../../shared/lib/forms.ts";
import { requireAdmin } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import type { Route } from "./+types/admin-delivery";

const m = messages.delivery;

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, "Delivery (admin)");

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { delivery } = context.services;
  const editId = new URL(request.url).searchParams.get("edit");
  const [zones, days, editing] = await Promise.all([
    loadOrRefuse(() => delivery.listZones(admin)),
    loadOrRefuse(() => delivery.getDispatchDays(admin)),
    editId ? loadOr404(() => delivery.getZoneForEditing(admin, editId)) : null,
  ]);
  return { zones, days, editing };
}

/** One form per intent: make or edit a zone, delete one, set the dispatch days. Every rule and the admin check are in the service. */
export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const form = await readForm(request);
  const fields = Object.fromEntries(form);
  const { delivery } = context.services;
  if (fields.intent === "delete") return actionResult(async () => ({ notice: m.deleted((await delivery.deleteZone(admin, fields.id)).name) }), { intent: "change" });
  if (fields.intent === "days") {
    return actionResult(async () => (await delivery.setDispatchDays(admin, { closedWeekdays: form.getAll("closedWeekdays"), holidays: fields.holidays }), { notice: m.daysSaved }), { intent: "days" });
  }
  // Kept to fill the form again as typed after a refusal (a browser without JavaScript gets a new page).
  const typed = Object.fromEntries([...form].filter(([, v]) => typeof v === "string")) as Record<string, string>;
  if (fields.intent === "update") return actionResult(async () => ({ notice: m.updated((await delivery.updateZone(admin, fields.id, fields)).name) }), { intent: "update", typed });
  return actionResult(async () => ({ notice: m.created((await delivery.createZone(admin, fields)).name) }), { intent: "create", typed });
}

function describeZone(zone: DeliveryZone): string {
  const parts = [formatPriceExact(zone.feePaise)];
  if (zone.freeAbovePaise !== null) parts.push(`free above ${formatPriceExact(zone.freeAbovePaise)}`);
  parts.push(`${zone.daysMin}–${zone.daysMax} days`);
  parts.push(!zone.codAllowed ? "no Cash on Delivery" : zone.codLimitPaise === null ? "Cash on Delivery" : `Cash on Delivery up to ${formatPriceExact(zone.codLimitPaise)}`);
  return parts.join(" · ");
}

type ZoneValues = { name: string; areas: string; fee: string; freeAbove: string; daysMin: string; daysMax: string; codAllowed: boolean; codLimit: string };
const EMPTY_FORM: ZoneValues = { name: "", areas: "", fee: "", freeAbove: "", daysMin: "3", daysMax: "7", codAllowed: true, codLimit: "" };

function typedValues(typed: Record<string, string>): ZoneValues {
  const text = (key: string) => typed[key] ?? "";
  return { name: text("name"), areas: text("areas"), fee: text("fee"), freeAbove: text("freeAbove"), daysMin: text("daysMin"), daysMax: text("daysMax"), codAllowed: text("codAllowed") === "on", codLimit: text("codLimit") };
}

export default function AdminDelivery({ loaderData, actionData }: Route.ComponentProps) {
  const { zones, days, editing } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const formFailure = failure && failure.intent === (editing ? "update" : "create") ? failure : undefined;
  const errors: Record<string, string> = formFailure?.fieldErrors ?? {};
  const daysFailure = failure?.intent === "days" ? failure : undefined;
  const notice = actionData?.ok ? actionData.notice : null;
  const values = formFailure && "typed" in formFailure ? typedValues(formFailure.typed as Record<string, string>) : editing ? editing.form : EMPTY_FORM;
  return (
    <section className="container-page py-10">
      <h1 className="text-3xl font-bold text-stone-900">{m.heading}</h1>
      <AdminNav />
      <EditorOutcome notice={notice} refusedChange={failure?.intent === "change" ? failure.message : null} />
      <div className="grid items-start gap-8 lg:grid-cols-[1fr_22rem]">
        <div className="grid gap-8">
          {zones.length ? (
            <table className="data-table w-full text-left text-sm">
              <thead>
                <tr className="border-b border-stone-300">
                  <th className="py-2">Zone</th>
                  <th>PIN codes</th>
                  <th>Terms</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {zones.map((zone) => (
                  <tr key={zone.id} aria-label={zone.name} className="border-b border-stone-200 align-top">
                    <td className="py-2 font-semibold">{zone.name}</td>
                    <td className="font-mono">{zone.areas.join(", ")}</td>
                    <td>{describeZone(zone)}</td>
                    <td className="flex flex-wrap gap-2 py-2">
                      <Link to={`?edit=${zone.id}`} className="btn-outline">
                        Edit {zone.name}
                      </Link>
                      <Form method="post" action="?">
                        <input type="hidden" name="id" value={zone.id ?? ""} />
                        <button type="submit" name="intent" value="delete" disabled={busy} className="btn-outline text-red-700">
                          Delete {zone.name}
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
          <Form method="post" noValidate className="grid gap-3 rounded-2xl border border-stone-200 p-6" aria-labelledby="days-form-title" key={`days:${notice ?? ""}`}>
            <h2 id="days-form-title" className="text-xl font-semibold text-stone-900">
              Days the shop does not dispatch
            </h2>
            <input type="hidden" name="intent" value="days" />
            <FormMessage message={formLevelMessage(daysFailure)} />
            <fieldset>
              <legend className="field-label">Weekdays</legend>
              {WEEKDAY_NAMES.map((name, weekday) => (
                <label key={name} className="mr-4 inline-flex items-center gap-1">
                  <input type="checkbox" name="closedWeekdays" value={weekday} defaultChecked={days.closedWeekdays.includes(weekday)} className="accent-leaf-700" /> {name}
                </label>
              ))}
              {daysFailure?.fieldErrors.closedWeekdays ? <p className="field-error">{daysFailure.fieldErrors.closedWeekdays}</p> : null}
            </fieldset>
            <FormField label="Holidays (dates like 2026-12-25, one a line)" name="holidays" multiline rows={4} defaultValue={days.holidays.join("\n")} error={daysFailure?.fieldErrors.holidays} />
            <button type="submit" disabled={busy} className="btn-primary justify-self-start">
              Save dispatch days
            </button>
          </Form>
        </div>
        {/* Made afresh after each save; kept as typed after a refusal. */}
        <Form key={`${editing?.zone.id ?? "new"}:${notice ?? ""}`} method="post" noValidate className="grid gap-3 rounded-2xl border border-stone-200 p-6" aria-labelledby="zone-form-title">
          <h2 id="zone-form-title" className="text-xl font-semibold text-stone-900">
            {editing ? `Edit zone ${editing.zone.name}` : "New zone"}
          </h2>
          <input type="hidden" name="intent" value={editing ? "update" : "create"} />
          {editing ? <input type="hidden" name="id" value={editing.zone.id ?? ""} /> : null}
          <FormMessage message={formLevelMessage(formFailure)} />
          <FormField label="Name" name="name" autoComplete="off" defaultValue={values.name} error={errors.name} />
          <FormField label="PIN codes (prefixes like 560, ranges like 400001-400104, single codes)" name="areas" multiline rows={4} defaultValue={values.areas} error={errors.areas} />
          <FormField label="Shipping fee (Rs.)" name="fee" inputMode="decimal" defaultValue={values.fee} error={errors.fee} />
          <FormField label="Free shipping above (Rs., optional)" name="freeAbove" inputMode="decimal" defaultValue={values.freeAbove} error={errors.freeAbove} />
          <FormField label="Fewest days to deliver" name="daysMin" inputMode="numeric" defaultValue={values.daysMin} error={errors.daysMin} />
          <FormField label="Most days to deliver" name="daysMax" inputMode="numeric" defaultValue={values.daysMax} error={errors.daysMax} />
          <label className="flex items-center gap-2">
            <input type="checkbox" name="codAllowed" defaultChecked={values.codAllowed} className="size-4 accent-leaf-700" /> Cash on Delivery allowed
          </label>
          <FormField label="Cash on Delivery up to (Rs., optional)" name="codLimit" inputMode="decimal" defaultValue={values.codLimit} error={errors.codLimit} />
          <button type="submit" disabled={busy} className="btn-primary">
            {editing ? "Save zone" : "Create zone"}
          </button>
          {editing ? (
            <Link to="?" className="text-center text-leaf-800 underline underline-offset-4">
              Cancel editing
            </Link>
          ) : null}
        </Form>
      </div>
    </section>
  );
}
