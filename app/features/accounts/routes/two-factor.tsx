import { useState } from "react";
import { data, Form, Link, useNavigation, type AppLoadContext } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { actionResult, formLevelMessage } from "../../../shared/lib/service-errors.ts";
import { readForm } from "../../../shared/lib/forms.ts";
import { redirectWithCookies, requireUser } from "../../../shared/lib/session.ts";
import { titleWithShop } from "../../../shared/lib/seo.ts";
import type { Route } from "./+types/two-factor";

// The owner's two-factor authentication: on (password, then scan the QR code, then a first code, then the recovery
// codes, shown once) and off (password). The services do the work through the auth library's two-factor plugin.

const t = messages.twoFactor;

/** Between turning on and the first code, the setup travels sealed in the form: nobody else can read or forge it. */
const SETUP_PURPOSE = "two-factor-setup";
const SETUP_MINUTES = 30;

interface SealedSetup {
  userId: string;
  otpauthUri: string;
  recoveryCodes: string[];
  at: number;
}

function openSetup(context: AppLoadContext, userId: string, sealed: FormDataEntryValue | null): SealedSetup | null {
  const opened = typeof sealed === "string" ? context.sealer.open(SETUP_PURPOSE, sealed) : null;
  if (!opened) return null;
  const setup = JSON.parse(opened) as SealedSetup;
  return setup.userId === userId && Date.now() - setup.at < SETUP_MINUTES * 60_000 ? setup : null;
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: titleWithShop(matches, t.heading) }, { name: "robots", content: "noindex" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  return { enabled: await context.services.accounts.isTwoFactorOn(user), profilePath: `/profile/${user.id}` };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { accounts } = context.services;
  const form = await readForm(request);
  const fields = Object.fromEntries(form);
  switch (form.get("intent")) {
    case "begin":
      return actionResult(async () => {
        const setup = await accounts.beginTwoFactor(user, fields, context.request);
        const sealed: SealedSetup = { userId: user.id, otpauthUri: setup.otpauthUri, recoveryCodes: setup.recoveryCodes, at: Date.now() };
        return { step: "confirm" as const, qrCode: setup.qrCode, secret: setup.secret, sealed: context.sealer.seal(SETUP_PURPOSE, JSON.stringify(sealed)) };
      });
    case "confirm": {
      const setup = openSetup(context, user.id, form.get("setup"));
      if (!setup) return data({ ok: false as const, message: t.setupExpired, fieldErrors: {} as Record<string, string> }, { status: 400 });
      const confirmed = await actionResult(() => accounts.confirmTwoFactor(user, fields, context.request));
      if ("ok" in confirmed) {
        // The library issued the session anew: pass it on with the codes, shown this once.
        const headers = new Headers();
        for (const cookie of context.sessionCookies.write(confirmed.session)) headers.append("Set-Cookie", cookie);
        return data({ ok: true as const, step: "codes" as const, recoveryCodes: setup.recoveryCodes }, { headers });
      }
      // A wrong first code: the same QR code again, to try with the next code.
      const view = await accounts.twoFactorSetupView(setup.otpauthUri);
      return data({ ...confirmed.data, step: "confirm" as const, qrCode: view.qrCode, secret: view.secret, sealed: String(form.get("setup")) }, confirmed.init ?? undefined);
    }
    case "turn-off": {
      const result = await actionResult(() => accounts.turnOffTwoFactor(user, fields, context.request, request.headers.get("cookie")));
      if (!("ok" in result)) return result;
      return redirectWithCookies(context, "/account/two-factor", [...context.sessionCookies.write(result.session), ...result.setCookies]);
    }
  }
  return data({ ok: false as const, message: "Choose what to do on the page.", fieldErrors: {} as Record<string, string> }, { status: 400 });
}

export default function TwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const setup = actionData && "step" in actionData && actionData.step === "confirm" ? actionData : undefined;
  const codes = actionData && "step" in actionData && actionData.step === "codes" ? actionData.recoveryCodes : undefined;
  return (
    <section className="container-page max-w-2xl py-12">
      <h1 className="text-3xl font-bold text-stone-900">{t.heading}</h1>
      <p className="mt-2 text-stone-700">
        With it on, logging in takes your password (or a link we e-mail you) and a code from an authenticator app on your phone.
      </p>
      <div className="mt-8 grid gap-4">
        {codes ? (
          <RecoveryCodes codes={codes} />
        ) : setup ? (
          <Confirm qrCode={setup.qrCode} secret={setup.secret} sealed={setup.sealed} failure={failure} busy={busy} />
        ) : (
          <PasswordStep enabled={loaderData.enabled} failure={failure} busy={busy} />
        )}
        <Link to={loaderData.profilePath} className="text-sm text-leaf-800 underline underline-offset-4">
          Back to your profile
        </Link>
      </div>
    </section>
  );
}

type Failure = { message: string; fieldErrors: Record<string, string> } | undefined;

function PasswordStep({ enabled, failure, busy }: { enabled: boolean; failure: Failure; busy: boolean }) {
  return (
    <Form method="post" noValidate className="grid gap-4">
      <p role="status" className="font-semibold text-stone-900">
        {enabled ? t.turnedOn : t.turnedOff}
      </p>
      <FormMessage message={formLevelMessage(failure)} />
      <input type="hidden" name="intent" value={enabled ? "turn-off" : "begin"} />
      <FormField label="Password" name="password" type="password" autoComplete="current-password" error={failure?.fieldErrors.password} />
      <SubmitButton busy={busy} busyLabel="Checking" className={enabled ? "btn-outline" : "btn-primary"}>
        {enabled ? "Turn off two-factor authentication" : "Turn on two-factor authentication"}
      </SubmitButton>
    </Form>
  );
}

function Confirm({ qrCode, secret, sealed, failure, busy }: { qrCode: string; secret: string; sealed: string; failure: Failure; busy: boolean }) {
  return (
    <Form method="post" noValidate className="grid gap-4">
      <p>Scan this QR code with your authenticator app, then enter the 6-digit code it shows.</p>
      <img src={qrCode} width={240} height={240} alt="QR code for your authenticator app" className="size-60 bg-white" data-testid="two-factor-qr" />
      <p className="text-sm text-stone-700">
        Cannot scan it? Enter this key in the app instead:{" "}
        <code className="break-all font-mono text-stone-900" data-testid="two-factor-secret">
          {secret}
        </code>
      </p>
      <FormMessage message={formLevelMessage(failure)} />
      <input type="hidden" name="intent" value="confirm" />
      <input type="hidden" name="setup" value={sealed} />
      <FormField label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={8} error={failure?.fieldErrors.code} />
      <SubmitButton busy={busy} busyLabel="Checking" className="btn-primary">
        Confirm
      </SubmitButton>
    </Form>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const text = codes.join("\n");
  return (
    <div className="grid gap-4">
      <p role="status" className="font-semibold text-stone-900">
        {t.turnedOn}
      </p>
      <p>
        Keep these recovery codes somewhere safe. Each one logs you in once if you lose your phone. They are shown only now.
      </p>
      <ul className="grid grid-cols-2 gap-2 font-mono text-stone-900" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          className="btn-outline"
          onClick={() => void navigator.clipboard.writeText(text).then(() => setCopied(true))}
        >
          {copied ? "Copied" : "Copy the codes"}
        </button>
        <a className="btn-outline" href={`data:text/plain;charset=utf-8,${encodeURIComponent(`${text}\n`)}`} download="recovery-codes.txt">
          Download as .txt
        </a>
      </div>
    </div>
  );
}
