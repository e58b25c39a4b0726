import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useFetcher } from "react-router";
import { messages } from "#common/messages.ts";
import { contactMessageSchema } from "#common/schemas/contact.ts";
import { FormField } from "./form-field.tsx";
import { SubmitButton } from "./ui/submit-button.tsx";

type ContactResult = { ok: true } | { ok: false; message: string; fieldErrors: Record<string, string> };

/** Contact Us: checked in the browser with the shared schema, stored by the server, then cleared. */
export function ContactForm() {
  const fetcher = useFetcher<ContactResult>();
  const form = useRef<HTMLFormElement>(null);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const sending = fetcher.state !== "idle";
  const result = fetcher.data;

  useEffect(() => {
    if (fetcher.state !== "idle" || !result) return;
    if (result.ok) {
      toast.success(messages.contact.sent);
      form.current?.reset();
    } else if (!Object.keys(result.fieldErrors).length) {
      toast.error(result.message);
    }
  }, [fetcher.state, result]);

  const errors = { ...(result && !result.ok ? result.fieldErrors : {}), ...clientErrors };
  return (
    <fetcher.Form
      ref={form}
      method="post"
      noValidate
      className="grid gap-4 sm:grid-cols-2"
      onSubmit={(event) => {
        const parsed = contactMessageSchema.safeParse(Object.fromEntries(new FormData(event.currentTarget)));
        const found: Record<string, string> = {};
        for (const issue of parsed.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
        setClientErrors(found);
        if (!parsed.success) event.preventDefault();
      }}
    >
      <FormField label="Name" name="name" autoComplete="name" error={errors.name} />
      <FormField label="Email" name="email" type="email" autoComplete="email" error={errors.email} />
      <div className="sm:col-span-2">
        <FormField label="Subject" name="subject" error={errors.subject} />
      </div>
      <div className="sm:col-span-2">
        <FormField label="Message" name="message" multiline rows={5} error={errors.message} />
      </div>
      <div className="sm:col-span-2">
        <SubmitButton busy={sending} busyLabel="Sending message" className="btn-primary">
          Send Message
        </SubmitButton>
      </div>
    </fetcher.Form>
  );
}
