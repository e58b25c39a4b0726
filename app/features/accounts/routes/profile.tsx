import { useEffect } from "react";
import { toast } from "../../../shared/lib/toast.ts";
import { Form, isRouteErrorResponse, Link, useNavigation, useSearchParams } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { IMAGE_FILE_ACCEPT } from "#common/shared/images.ts";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { NotFound } from "../../../shared/components/not-found.tsx";
import { actionResult, formLevelMessage, loadOr404 } from "../../../shared/lib/service-errors.ts";
import { redirectWithSession, requireUser } from "../../../shared/lib/session.ts";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import { useResetOnSuccess } from "../../../shared/lib/use-reset-on-success.ts";
import type { Route } from "./+types/profile";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { titleWithShop } from "../../../shared/lib/seo.ts";
import { readForm } from "../../../shared/lib/forms.ts";

export async function loader({ params, context }: Route.LoaderArgs) {
  const profile = await loadOr404(() => context.services.profiles.getProfile(context.user, params.userId));
  // The owner of an account without a password (a provider's sign-in only) gets no change-password form to fail.
  const hasPassword = context.user?.id === params.userId ? (await context.services.accounts.ownerProof(context.user, context.request)).kind === "password" : false;
  return { ...profile, hasPassword };
}

export const meta: Route.MetaFunction = ({ matches, data }) => (data ? [{ title: titleWithShop(matches, `${data.name} (@${data.username})`) }] : []);


export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const form = await readForm(request);
  if (form.get("intent") === "change-password") {
    const result = await actionResult(() => context.services.accounts.changePassword(Object.fromEntries(form), context.request), {
      intent: "change-password" as const,
    });
    if (!("ok" in result) || !result.ok) return result;
    // The session was issued anew (the other ones are signed out): pass it on. The confirmation is a
    // flash toast, shown once, not a query parameter a reload would show again.
    return redirectWithSession(context, `/profile/${user.id}`, result.session, "passwordChanged");
  }
  const picture = form.get("image");
  const bytes = picture instanceof File && picture.size > 0 ? new Uint8Array(await picture.arrayBuffer()) : null;
  const fields = Object.fromEntries([...form].filter(([, value]) => typeof value === "string"));
  return actionResult(async () => ({ profile: await context.services.profiles.updateProfile(user, params.userId, fields, bytes, context.request) }), {
    intent: "update-profile" as const,
  });
}

export default function Profile({ loaderData: profile, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const editing = profile.isOwner && params.has("edit");
  const saved = actionData?.intent === "update-profile" && actionData.ok;

  useEffect(() => {
    if (saved) toast.success(messages.profile.updated);
  }, [saved, actionData]);

  return (
    <section className="container-page max-w-3xl py-12">
      <div className="flex flex-col items-center gap-4 text-center sm:flex-row sm:text-left">
        <img src={profile.avatarUrl} width={100} height={100} alt={`${profile.name}'s picture`} className="size-[100px] rounded-full object-cover shadow" />
        <div className="flex-1">
          <h1 className="text-3xl font-bold text-stone-900">{profile.name}</h1>
          <p className="text-stone-700">@{profile.username}</p>
          {profile.location ? <p className="text-sm text-stone-600">{profile.location}</p> : null}
        </div>
        {profile.isOwner ? (
          <Link to={editing ? "." : "?edit"} className="btn-outline" aria-expanded={editing} aria-controls="personal-information">
            {editing ? "Close" : "Edit profile"}
          </Link>
        ) : null}
      </div>
      {"email" in profile && editing ? <PersonalInformation profile={profile} actionData={actionData} /> : null}
      {profile.isOwner ? <AccountLinks /> : null}
      {"email" in profile ? (
        profile.hasPassword ? <ChangePassword actionData={actionData} /> : <p className="mt-10 text-sm text-stone-600">{messages.signInMethods.noPassword}</p>
      ) : null}
    </section>
  );
}

/** The owner's ways to their orders and to the account's settings, each a page of its own. */
function AccountLinks() {
  const links = [
    { to: "/orders", label: "Your orders" },
    { to: "/account/security", label: "Sign-in and security" },
    { to: "/account/two-factor", label: "Two-factor authentication" },
    { to: "/account/email", label: messages.accountChanges.changeEmailLink },
    { to: "/account/delete", label: messages.accountChanges.deleteAccountLink },
    { to: "/account/sign-in-methods", label: messages.signInMethods.manage },
  ];
  return (
    <nav aria-label="Your account" className="mt-8">
      <ul className="flex flex-wrap gap-x-6 gap-y-2">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="font-semibold text-leaf-800 underline underline-offset-4">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

type ActionData = Route.ComponentProps["actionData"];
type OwnProfile = Extract<Route.ComponentProps["loaderData"], { email: string }>;

function PersonalInformation({ profile, actionData }: { profile: OwnProfile; actionData: ActionData }) {
  const navigation = useNavigation();
  const failure = actionData?.intent === "update-profile" && !actionData.ok ? actionData : undefined;
  const { errors, onSubmit, prepare } = useFormErrors(() => import("#common/accounts/account-schemas.ts").then((m) => m.profileFormSchema), failure?.fieldErrors);
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "update-profile";
  // Saved: the chosen picture is uploaded, so the file field empties (the others show what was saved).
  const form = useResetOnSuccess("update-profile", failure !== undefined);
  return (
    <Form ref={form} id="personal-information" method="post" encType="multipart/form-data" noValidate onSubmit={onSubmit} onFocus={prepare} className="mt-10 grid gap-4 rounded-2xl border border-stone-200 p-6">
      <h2 className="text-xl font-semibold text-stone-900">{messages.profile.personalInformation}</h2>
      <p className="text-sm text-stone-600">E-mail: {profile.email}</p>
      <FormMessage message={formLevelMessage(failure)} />
      <input type="hidden" name="intent" value="update-profile" />
      <FormField label="Full Name" name="name" defaultValue={profile.name} autoComplete="name" error={errors.name} />
      <FormField label="Username" name="username" defaultValue={profile.username} autoComplete="username" error={errors.username} />
      <FormField label="Phone Number" name="phone" type="tel" defaultValue={profile.phone} autoComplete="tel" error={errors.phone} />
      <FormField label="Address" name="address" multiline rows={3} defaultValue={profile.address} autoComplete="street-address" error={errors.address} />
      <FormField label="Location" name="location" defaultValue={profile.location} placeholder="City, country" error={errors.location} />
      <FormField label="Profile Picture" name="image" type="file" accept={IMAGE_FILE_ACCEPT} error={errors.image} />
      <SubmitButton busy={busy} busyLabel="Saving" className="btn-primary justify-self-start">
        Save
      </SubmitButton>
    </Form>
  );
}

function ChangePassword({ actionData }: { actionData: ActionData }) {
  const navigation = useNavigation();
  const failure = actionData?.intent === "change-password" && !actionData.ok ? actionData : undefined;
  const { errors, onSubmit, prepare } = useFormErrors(() => import("#common/accounts/account-schemas.ts").then((m) => m.changePasswordSchema), failure?.fieldErrors);
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "change-password";
  const form = useResetOnSuccess("change-password", failure !== undefined);
  return (
    <Form ref={form} method="post" noValidate onSubmit={onSubmit} onFocus={prepare} className="mt-10 grid gap-4 rounded-2xl border border-stone-200 p-6">
      <h2 className="text-xl font-semibold text-stone-900">Change password</h2>
      <FormMessage message={formLevelMessage(failure)} />
      <input type="hidden" name="intent" value="change-password" />
      <FormField label="Current password" name="currentPassword" type="password" autoComplete="current-password" error={errors.currentPassword} />
      <FormField label="New password" name="newPassword" type="password" autoComplete="new-password" error={errors.newPassword} />
      <SubmitButton busy={busy} busyLabel="Saving" className="btn-outline justify-self-start">
        Change password
      </SubmitButton>
    </Form>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound message={messages.profile.noUserData} />;
  throw error;
}
