import { Form, Link, redirect } from "react-router";
import { catalogCsvMessages as t, CSV_IMPORT_MAX_BYTES, type ImportView } from "#common/admin/catalog-csv.ts";
import { AdminNav } from "../components/admin-nav.tsx";
import { readForm } from "../../../shared/lib/forms.ts";
import { actionResult, loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { requireAdmin } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import type { Route } from "./+types/import-products";

// /admin/products/import: upload → preview (kept on the server under a token) → import, which runs as a job of the
// server while this page reloads itself to show its progress, with or without JavaScript (docs/decisions/058).

export const meta: Route.MetaFunction = ({ matches, data }) => [
  ...privatePageMeta(matches, `${t.importHeading} (admin)`),
  ...(data?.view?.state === "running" ? [{ httpEquiv: "refresh", content: "1" } as const] : []),
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const token = new URL(request.url).searchParams.get("token");
  if (token === null) return { view: null };
  return { view: await loadOrRefuse(() => context.services.adminCatalog.getImport(admin, { token })) };
}

export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const form = await readForm(request);
  if (form.get("intent") === "import") {
    const result = await actionResult(async () => {
      const started = await context.services.adminCatalog.startImport(admin, { token: form.get("token") });
      started.finished.catch(context.reportError);
      return { token: started.view.token };
    });
    if ("ok" in result && result.ok) return redirect(`/admin/products/import?token=${result.token}`);
    return result;
  }
  const file = form.get("file");
  const result = await actionResult(async () => {
    const view = await context.services.adminCatalog.previewImport(admin, file instanceof File ? file : null);
    return { token: view.token };
  });
  if ("ok" in result && result.ok) return redirect(`/admin/products/import?token=${result.token}`);
  return result;
}

const OUTCOME_WORDS: Record<ImportView["rows"][number]["outcome"], string> = {
  created: "created",
  changed: "changed",
  unchanged: "unchanged",
  refused: "refused",
};

export default function ImportProducts({ loaderData, actionData }: Route.ComponentProps) {
  const { view } = loaderData;
  const failure = actionData && "ok" in actionData && !actionData.ok ? actionData : null;
  return (
    <section className="container-page py-10">
      <AdminNav />
      <h1 className="text-3xl font-bold text-stone-900">{t.importHeading}</h1>
      {view === null ? <UploadForm failure={failure?.message ?? null} /> : <ImportReport view={view} failure={failure?.message ?? null} />}
    </section>
  );
}

function UploadForm({ failure }: { failure: string | null }) {
  return (
    <Form method="post" encType="multipart/form-data" className="mt-6 max-w-xl space-y-4">
      <p className="text-stone-700">{t.importHelp}</p>
      <div>
        <label htmlFor="csv-file" className="field-label">
          {t.chooseFile} (at most {Math.round(CSV_IMPORT_MAX_BYTES / 1024 / 1024)} MB)
        </label>
        <input id="csv-file" name="file" type="file" accept=".csv,text/csv" className="field-input" />
      </div>
      <FormMessage message={failure} />
      <input type="hidden" name="intent" value="preview" />
      <button type="submit" className="btn-primary">
        {t.preview}
      </button>
    </Form>
  );
}

function ImportReport({ view, failure }: { view: ImportView; failure: string | null }) {
  const { counts } = view;
  return (
    <div className="mt-6 space-y-4">
      <p>
        {view.fileName}: {view.totalRows} rows — {counts.created} created, {counts.changed} changed, {counts.unchanged} unchanged, {counts.refused} refused.
      </p>
      <FormMessage message={failure} />
      {view.state === "preview" ? (
        <Form method="post" className="flex gap-3">
          <input type="hidden" name="intent" value="import" />
          <input type="hidden" name="token" value={view.token} />
          <button type="submit" className="btn-primary" disabled={view.toWrite === 0}>
            {t.apply}
          </button>
          <Link to="/admin/products/import" className="btn-outline">
            Choose another file
          </Link>
        </Form>
      ) : (
        <div>
          <p role="status">{view.state === "finished" ? `${t.finished}: ${t.progress(view.done, view.toWrite)}` : t.progress(view.done, view.toWrite)}</p>
          <progress max={Math.max(view.toWrite, 1)} value={view.done} className="w-full" aria-label="Import progress" />
          {view.state === "stopped" ? (
            <p className="mt-2 text-red-700">
              {t.stopped} <Link to="/admin/products/import">Upload a file</Link>
            </p>
          ) : null}
          {view.failures.length ? (
            <ul className="mt-2 list-disc pl-6 text-red-700">
              {view.failures.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          ) : null}
          {view.state === "finished" ? (
            <p className="mt-2">
              <Link to="/admin/products">Back to products</Link>
            </p>
          ) : null}
        </div>
      )}
      {view.rows.length ? (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">What the file changes, row by row</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">SKU</th>
              <th scope="col">Product</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {view.rows.map((row) => (
              <tr key={row.row} data-outcome={row.outcome}>
                <td>{row.row}</td>
                <td>{row.sku}</td>
                <td>{row.product}</td>
                <td>
                  {OUTCOME_WORDS[row.outcome]}
                  {row.details.length ? ` ${row.details.join(", ")}` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
