import { useState, type FormEvent } from "react";
import type { z } from "zod";

/**
 * Checks a form in the browser with the same schema the server uses, before it is sent; the server's own
 * field errors (from the action) are merged in, the browser's more recent ones first.
 */
export function useFormErrors(schema: z.ZodType, serverErrors: Record<string, string> | undefined) {
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const parsed = schema.safeParse(Object.fromEntries(new FormData(event.currentTarget)));
    const found: Record<string, string> = {};
    for (const issue of parsed.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
    setClientErrors(found);
    if (!parsed.success) event.preventDefault();
  };
  const errors = clientErrors && Object.keys(clientErrors).length ? clientErrors : (serverErrors ?? {});
  return { errors, onSubmit, reset: () => setClientErrors(null) };
}
