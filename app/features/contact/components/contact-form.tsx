import { useEffect, useRef } from "react";
import { toast } from "../../../shared/lib/toast.ts";
import { useActionData, useFetcher } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import type { ActionFailure } from "../../../shared/lib/service-errors.ts";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";

type ContactResult = { ok: true } | ActionFailure;

/**
 * Contact Us: checked in the browser with the shared schema, stored by the server, then cleared with a toast.
 * Before JavaScript has loaded, the form posts to the home page itself, which answers with the same result.
 */
export function ContactForm() {
  const fetcher = useFetcher<ContactResult>();
  const posted = useActionData<ContactResult>();
  const form = useRef<HTMLFormElement>(null);
  const sending = fetcher.state !== "idle";
  const result = fetcher.data ?? posted;
  const { errors, onSubmit, prepare, reset } = useFormErrors(() => import("#common/contact/contact-schemas.ts").then((m) => m.contactMessageSchema), result && !result.ok ? result.fieldErrors : undefined);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) {
      toast.success(messages.contact.sent);
      form.current?.reset();
      reset();
    } else if (!Object.keys(fetcher.data.fieldErrors).length) {
      toast.error(fetcher.data.message);
    }
  }, [fetcher.state, fetcher.data]);

  return (
    // The home page's own action; the fragment brings a page posted without JavaScript back down to this form and
    // what it says, instead of the top of the page.
    <fetcher.Form ref={form} method="post" action="/?index#contact-us" noValidate className="grid gap-4 sm:grid-cols-2" onSubmit={onSubmit} onFocus={prepare}>
      <FormField label="Name" name="name" autoComplete="name" required error={errors.name} />
      <FormField label="Email" name="email" type="email" autoComplete="email" required error={errors.email} />
      <div className="sm:col-span-2">
        <FormField label="Subject" name="subject" required error={errors.subject} />
      </div>
      <div className="sm:col-span-2">
        <FormField label="Message" name="message" multiline rows={5} required error={errors.message} />
      </div>
      <div className="flex flex-wrap items-center gap-4 sm:col-span-2">
        <SubmitButton busy={sending} busyLabel="Sending message" className="btn-primary">
          Send Message
        </SubmitButton>
        {/* Without JavaScript there is no toast: the page the form posted to says it instead. */}
        {!fetcher.data && posted ? (
          <p role="status" className={posted.ok ? "text-leaf-800" : "field-error"}>
            {posted.ok ? messages.contact.sent : Object.keys(posted.fieldErrors).length ? null : posted.message}
          </p>
        ) : null}
      </div>
    </fetcher.Form>
  );
}
