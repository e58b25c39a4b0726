import { useRef, useState, type FormEvent } from "react";
import type { z } from "zod";

/** A form's schema, imported when first needed: zod stays out of the page's first load (docs/decisions/028). */
export type SchemaLoader = () => Promise<z.ZodType>;

let zodReady: Promise<unknown> | undefined;

/** Loads the schema after zod is set to never probe `new Function`, a probe the CSP reports (docs/decisions/004). */
function loadSchema(load: SchemaLoader): Promise<z.ZodType> {
  zodReady ??= import("./zod-in-browser.ts");
  return zodReady.then(load);
}

/** Turns a form's fields into the input its schema checks; one value per name unless the form says otherwise. */
export type FormReader = (form: FormData) => unknown;

const readFields: FormReader = (form) => Object.fromEntries(form);

/**
 * The element that takes the focus for a field in error. A radio group (the review's stars) is a list under its
 * name: its chosen option, else its first. A field whose values are hidden inputs (a list of pictures) cannot
 * take the focus itself: its visible control names it with `data-field`.
 */
function focusTarget(form: HTMLFormElement, name: string): HTMLElement | null {
  const control = [...form.querySelectorAll<HTMLElement>("[data-field]")].find((element) => element.dataset.field === name);
  if (control) return control;
  const field = form.elements.namedItem(name);
  const target = field instanceof RadioNodeList ? ([...field].find((option) => option instanceof HTMLInputElement && option.checked) ?? field[0]) : field;
  // A hidden input (a key the page made) cannot take the focus: the next field in error gets it.
  return target instanceof HTMLElement && !(target instanceof HTMLInputElement && target.type === "hidden") ? target : null;
}

/**
 * Checks a form in the browser with the same schema the server uses, before it is sent; the server's own
 * field errors (from the action) are merged in, the browser's more recent ones first. A form stopped here
 * moves the focus to its first field in error, so keyboard and screen reader users land on what to fix.
 *
 * `read` turns the posted fields into the schema's input, for a form that posts a list under one name: it should
 * be what the page's action hands the service, so both sides check the same input. `key` names the field an issue is
 * shown at (its first path segment, unless the form shows a list's items apart, as the product form's sizes).
 *
 * The schema loads when the form is first focused (`prepare`, for the form's onFocus) or, at the latest, at
 * the first submit, which then waits for it and submits again. If it cannot load, the server checks alone.
 */
export function useFormErrors(
  load: SchemaLoader,
  serverErrors: Record<string, string> | undefined,
  { read = readFields, key = (path) => String(path[0]) }: { read?: FormReader; key?: (path: PropertyKey[]) => string } = {},
) {
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const schema = useRef<{ loading: Promise<void>; value: z.ZodType | null; failed: boolean } | null>(null);

  const prepare = () => {
    if (schema.current) return schema.current.loading;
    const state = { loading: Promise.resolve(), value: null as z.ZodType | null, failed: false };
    state.loading = loadSchema(load).then(
      (value) => void (state.value = value),
      () => void (state.failed = true),
    );
    schema.current = state;
    return state.loading;
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const loaded = schema.current;
    if (!loaded?.value && !loaded?.failed) {
      // Not loaded yet: hold this submit and send the form again, through the same handler, once it is.
      event.preventDefault();
      const submitter = (event.nativeEvent as SubmitEvent).submitter;
      void prepare().then(() => {
        if (form.isConnected) form.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined);
      });
      return;
    }
    if (!loaded.value) return;
    const parsed = loaded.value.safeParse(read(new FormData(form)));
    const found: Record<string, string> = {};
    for (const issue of parsed.error?.issues ?? []) found[key(issue.path)] ??= issue.message;
    setClientErrors(found);
    if (parsed.success) return;
    event.preventDefault();
    // The first field in error as the page shows them, which need not be the schema's order.
    const targets = Object.keys(found).flatMap((name) => focusTarget(form, name) ?? []);
    targets.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    targets[0]?.focus();
  };
  const errors = clientErrors && Object.keys(clientErrors).length ? clientErrors : (serverErrors ?? {});
  return { errors, onSubmit, prepare: () => void prepare(), reset: () => setClientErrors(null) };
}
