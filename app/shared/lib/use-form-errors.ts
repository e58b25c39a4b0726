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

/**
 * Checks a form in the browser with the same schema the server uses, before it is sent; the server's own
 * field errors (from the action) are merged in, the browser's more recent ones first. A form stopped here
 * moves the focus to its first field in error, so keyboard and screen reader users land on what to fix.
 *
 * The schema loads when the form is first focused (`prepare`, for the form's onFocus) or, at the latest, at
 * the first submit, which then waits for it and submits again. If it cannot load, the server checks alone.
 */
export function useFormErrors(load: SchemaLoader, serverErrors: Record<string, string> | undefined) {
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
    const parsed = loaded.value.safeParse(Object.fromEntries(new FormData(form)));
    const found: Record<string, string> = {};
    for (const issue of parsed.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
    setClientErrors(found);
    if (parsed.success) return;
    event.preventDefault();
    const first = Object.keys(found)[0];
    const field = first ? form.elements.namedItem(first) : null;
    // A radio group (the review's stars) is a list under its name: its chosen option takes the focus, else its first.
    const target = field instanceof RadioNodeList ? ([...field].find((option) => option instanceof HTMLInputElement && option.checked) ?? field[0]) : field;
    if (target instanceof HTMLElement) target.focus();
  };
  const errors = clientErrors && Object.keys(clientErrors).length ? clientErrors : (serverErrors ?? {});
  return { errors, onSubmit, prepare: () => void prepare(), reset: () => setClientErrors(null) };
}
