import { useState, type FormEvent } from "react";
import type { z } from "zod";

/**
 * Checks a form in the browser with the same schema the server uses, before it is sent; the server's own
 * field errors (from the action) are merged in, the browser's more recent ones first. A form stopped here
 * moves the focus to its first field in error, so keyboard and screen reader users land on what to fix.
 */
export function useFormErrors(schema: z.ZodType, serverErrors: Record<string, string> | undefined) {
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const parsed = schema.safeParse(Object.fromEntries(new FormData(form)));
    const found: Record<string, string> = {};
    for (const issue of parsed.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
    setClientErrors(found);
    if (parsed.success) return;
    event.preventDefault();
    const first = Object.keys(found)[0];
    const field = first ? form.elements.namedItem(first) : null;
    if (field instanceof HTMLElement) field.focus();
  };
  const errors = clientErrors && Object.keys(clientErrors).length ? clientErrors : (serverErrors ?? {});
  return { errors, onSubmit, reset: () => setClientErrors(null) };
}
