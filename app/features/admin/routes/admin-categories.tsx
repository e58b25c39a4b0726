import { Form, Link } from "react-router";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { AdminNav } from "../components/admin-nav.tsx";
import { ConfirmDelete } from "../components/confirm-delete.tsx";
import { ImagesField } from "../components/images-field.tsx";
import { readForm } from "../../../shared/lib/forms.ts";
import { actionResult, loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { requireAdmin } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import { FieldError, fieldErrorProps } from "../../../shared/ui/form-field.tsx";
import type { Route } from "./+types/admin-categories";

const m = adminMessages.category;

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, "Categories (admin)");

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  // A search that is too long or holds control characters is a 400 page with its message, not a 500.
  return loadOrRefuse(() => context.services.adminCatalog.listCategories(admin, Object.fromEntries(new URL(request.url).searchParams)));
}

export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const form = await readForm(request);
  const target = { categoryId: form.get("categoryId") };
  const rowId = String(form.get("categoryId"));
  switch (form.get("intent")) {
    case "delete":
      return actionResult(() => context.services.adminCatalog.deleteCategory(admin, target), { intent: "delete" as const, rowId });
    case "image":
      return actionResult(() => context.services.adminCatalog.setCategoryImage(admin, target, { image: form.get("image") }), { intent: "image" as const, rowId });
    default:
      return actionResult(() => context.services.adminCatalog.renameCategory(admin, target, { name: form.get("name") }), { intent: "rename" as const, rowId });
  }
}

const DONE = { rename: m.renamed, image: m.imageChanged, delete: m.deleted } as const;

export default function AdminCategories({ loaderData, actionData }: Route.ComponentProps) {
  const { items, next } = loaderData;
  return (
    <section className="container-page py-10">
      <AdminNav />
      <h1 className="text-3xl font-bold text-stone-900">Categories</h1>
      {actionData?.ok && actionData.intent === "delete" ? (
        <p role="status" className="mt-4 text-leaf-800">
          {m.deleted}
        </p>
      ) : null}
      <ul className="mt-6 divide-y divide-stone-200">
        {items.map((category) => {
          const result = actionData?.rowId === category.id ? actionData : undefined;
          // A refused rename or picture is said under the field it is about, which it describes; a refused delete
          // (still in use) is about the row.
          const refusal = result && !result.ok ? result : undefined;
          const renameError = refusal?.intent === "rename" ? refusal.message : undefined;
          const nameId = `name-${category.id}`;
          return (
            <li key={category.id} className="flex flex-wrap items-start gap-4 py-4" data-testid="admin-category-row">
              <img src={category.image.url} width={64} height={64} alt="" className="size-16 rounded object-cover" />
              <div className="grid flex-1 gap-2">
                <Link to={`/category/${category.id}`} className="font-semibold text-leaf-800 underline underline-offset-4">
                  {category.name}
                </Link>
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="intent" value="rename" />
                  <input type="hidden" name="categoryId" value={category.id} />
                  <label className="sr-only" htmlFor={nameId}>
                    New name for {category.name}
                  </label>
                  <input id={nameId} name="name" defaultValue={category.name} key={category.name} className="field-input w-56" {...fieldErrorProps(nameId, renameError)} />
                  <button type="submit" className="btn-outline text-sm">
                    Rename
                  </button>
                </Form>
                <FieldError controlId={nameId} error={renameError} alert />
                <Form method="post" className="grid max-w-md gap-2">
                  <input type="hidden" name="intent" value="image" />
                  <input type="hidden" name="categoryId" value={category.id} />
                  <ImagesField name="image" label={`New image for ${category.name}`} purpose="category" error={refusal?.intent === "image" ? refusal.message : undefined} announceError />
                  <div>
                    <button type="submit" className="btn-outline text-sm">
                      Change image
                    </button>
                  </div>
                </Form>
                {refusal?.intent === "delete" ? (
                  <p role="alert" className="field-error">
                    {refusal.message}
                  </p>
                ) : null}
                {result?.ok && result.intent !== "delete" ? (
                  <p role="status" className="text-sm text-leaf-800">
                    {DONE[result.intent]}
                  </p>
                ) : null}
              </div>
              <ConfirmDelete idField="categoryId" id={category.id} name={category.name} question={m.confirmDelete(category.name)} />
            </li>
          );
        })}
      </ul>
      {next ? (
        <nav aria-label="Pages" className="mt-6 flex justify-end">
          <Link to={`?${new URLSearchParams({ after: next })}`}>Next page →</Link>
        </nav>
      ) : null}
    </section>
  );
}
