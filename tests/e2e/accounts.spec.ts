import sharp from "sharp";
import type { Page } from "@playwright/test";
import { MAX_IMAGE_BYTES } from "../../common/shared/constants.ts";
import { messages } from "../../common/shared/messages.ts";
import { authRateRules } from "../../server/modules/accounts/index.ts";
import { createRateLimiter } from "../../server/platform/rate-limit/rate-limit.ts";
import { allowStatusLogs, expect, test } from "./support/fixtures.ts";
import { linkFromMail, mailsWithLink, mailWithSubject, mailWithSubjectMatching } from "./support/mail.ts";
import { ADMIN, E2E_RATE_LIMIT_SCALE, hydrated, logIn, logOut, mainNav, submitLogin, submitRegistration, toast, urlIs } from "./support/pages.ts";

// Accounts end to end: sign-up, e-mail verification, login and logout, profile, passwords, roles.
// Every test makes its own people (unique e-mail and username): the server limits sign-ups per address
// (20 an hour) and mails per e-mail, so this file makes 13 sign-ups in all (the one refused for a taken
// username and the one with a taken e-mail count too; the orders spec makes two more).

interface Person {
  name: string;
  username: string;
  email: string;
  password: string;
}

const formWithHeading = (page: Page, heading: string) => page.locator("form").filter({ has: page.getByRole("heading", { name: heading }) });

let counter = 0;
function newPerson(): Person {
  const n = `${Date.now().toString(36)}${++counter}`;
  return { name: "Asha Kulkarni", username: `asha_${n}`, email: `asha.${n}@example.com`, password: "monstera-deliciosa-77" };
}

/** Signs up through /register; the page is left on /verify. */
async function register(page: Page, person: Person) {
  await page.goto("/register");
  await expect(page.getByRole("heading", { name: messages.auth.registerHeading })).toBeVisible();
  await submitRegistration(page, person);
  await expect(page).toHaveURL(urlIs("/verify"));
}

/** Signs up, follows the verification link of the e-mail, and returns the new user's id (signed in). */
async function registerAndVerify(page: Page, person: Person): Promise<string> {
  await register(page, person);
  const link = await linkFromMail(person.email, "/verify");
  await page.goto(link);
  await expect(page).toHaveURL(urlIs("/"));
  await expect(toast(page, messages.auth.emailVerified)).toBeVisible();
  const href = await mainNav(page).getByRole("link", { name: "Your profile" }).getAttribute("href");
  const id = href?.match(/^\/profile\/([\w-]+)$/)?.[1];
  if (!id) throw new Error(`unexpected profile link: ${href}`);
  return id;
}

test.describe("accounts", () => {
  test("register, verify, log in and out, edit the profile, change and reset the password", async ({ page, baseURL, shopDb, consoleErrors }) => {
    // One long journey (about 25 s, much of it password hashing on the server).
    test.setTimeout(90_000);
    const person = newPerson();
    const changedPassword = "fern-and-moss-after-change-3";
    const resetPassword = "new-leaf-after-reset-9";

    // Register: lands on /verify, which says a mail was sent.
    await page.goto("/register");
    await expect(page.getByRole("heading", { name: messages.auth.registerHeading })).toBeVisible();
    await submitRegistration(page, person);
    await expect(page).toHaveURL(urlIs("/verify"));
    await expect(toast(page, messages.auth.accountCreated)).toBeVisible();
    await expect(page.getByText(messages.auth.verificationSent)).toBeVisible();
    await expect(page.getByText(messages.auth.checkInbox)).toBeVisible();
    await expect(page.getByLabel("Email"), "ready to send the mail again").toHaveValue(person.email);

    // The link of the verification mail signs the person in.
    const verifyLink = await linkFromMail(person.email, "/verify");
    expect(verifyLink.startsWith(`${baseURL}/verify?token=`), verifyLink).toBe(true);
    await page.goto(verifyLink);
    await expect(page).toHaveURL(urlIs("/"));
    await expect(toast(page, messages.auth.emailVerified)).toBeVisible();
    const nav = mainNav(page);
    await expect(nav.getByRole("link", { name: "Shop", exact: true })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Your profile" })).toBeVisible();
    await expect(nav.getByRole("button", { name: "Logout" })).toBeVisible();

    await logOut(page);
    await nav.getByRole("link", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
    await submitLogin(page, person);
    await expect(toast(page, messages.auth.loggedIn)).toBeVisible();

    // Own profile: edit every field and upload a picture. Until then the navigation shows the initials avatar.
    const navAvatar = mainNav(page).getByRole("link", { name: "Your profile" }).getByRole("img", { name: "Your profile" });
    await expect(navAvatar).toHaveAttribute("src", `/avatars/initials.svg?name=${encodeURIComponent(person.name)}`);
    await mainNav(page).getByRole("link", { name: "Your profile" }).click();
    await expect(page).toHaveURL(/\/profile\/[\w-]+$/);
    await expect(page.getByRole("heading", { level: 1, name: person.name })).toBeVisible();
    await page.getByRole("link", { name: "Edit profile" }).click();
    await expect(page.getByRole("heading", { name: messages.profile.personalInformation })).toBeVisible();
    const edited = {
      name: "Asha K. Rao",
      username: `rao_${person.username}`.slice(0, 30),
      phone: "+91 98765 43210",
      address: "12 Lalbagh Road, Bengaluru 560027",
      location: "Bengaluru, India",
    };
    await page.getByLabel("Full Name").fill(edited.name);
    await page.getByLabel("Username").fill(edited.username);
    await page.getByLabel("Phone Number").fill(edited.phone);
    await page.getByLabel("Address", { exact: true }).fill(edited.address);
    await page.getByLabel("Location").fill(edited.location);
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#3f9a4a" } }).png().toBuffer();
    await page.getByLabel("Profile Picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page, messages.profile.updated)).toBeVisible();
    await expect(page.getByLabel("Profile Picture"), "uploaded: a second Save would not send it again").toHaveValue("");
    await expect(page.getByLabel("Full Name"), "the other fields show what was saved").toHaveValue(edited.name);
    await expect(page.getByLabel("Username")).toHaveValue(edited.username);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(edited.name);
    await expect(page.getByText(`@${edited.username}`, { exact: true })).toBeVisible();
    await expect(page.getByText(edited.location, { exact: true })).toBeVisible();
    const avatar = page.getByRole("img", { name: `${edited.name}'s picture` });
    await expect(avatar).toHaveAttribute("src", /^\/media\//);
    await expect.poll(() => avatar.evaluate((img) => (img as HTMLImageElement).naturalWidth), { message: "the picture loads" }).toBeGreaterThan(0);
    await expect(navAvatar).toHaveAttribute("src", (await avatar.getAttribute("src"))!);
    const stored = await shopDb.db
      .selectFrom("users")
      .select(["name", "username", "phone", "address", "location", "image"])
      .where("email", "=", person.email)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ ...edited, image: await avatar.getAttribute("src") });

    // Change the password while logged in: a wrong current password keeps what was typed; a change empties
    // both fields and says so once, not again on reload.
    const profileUrl = new URL(page.url()).pathname;
    const changeForm = formWithHeading(page, "Change password");
    await changeForm.getByLabel("Current password").fill("not-my-password-1");
    await changeForm.getByLabel("New password").fill(changedPassword);
    await changeForm.getByRole("button", { name: "Change password" }).click();
    await expect(changeForm.getByLabel("Current password")).toHaveAccessibleDescription(messages.auth.currentPasswordWrong);
    await expect(changeForm.getByLabel("New password")).toHaveValue(changedPassword);
    await changeForm.getByLabel("Current password").fill(person.password);
    await changeForm.getByRole("button", { name: "Change password" }).click();
    await expect(toast(page, messages.auth.passwordChanged)).toBeVisible();
    await expect(changeForm.getByLabel("Current password")).toHaveValue("");
    await expect(changeForm.getByLabel("New password")).toHaveValue("");
    await expect(page).toHaveURL(urlIs(profileUrl));
    const reloaded = await page.reload();
    expect(await reloaded!.text(), "the reloaded page carries no confirmation").not.toContain(messages.auth.passwordChanged);
    await expect(page.getByRole("heading", { name: "Change password" })).toBeVisible();

    // Forgotten it anyway: reset it through the mailed link.
    await logOut(page);
    await mainNav(page).getByRole("link", { name: "Login" }).click();
    await page.getByRole("link", { name: messages.auth.forgotPassword }).click();
    await expect(page).toHaveURL(urlIs("/forgot-password"));
    await page.getByLabel("Email").fill(person.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByText(messages.auth.resetLinkSent)).toBeVisible();
    const resetLink = await linkFromMail(person.email, "/reset-password");
    expect(resetLink.startsWith(`${baseURL}/reset-password?token=`), resetLink).toBe(true);
    await page.goto(resetLink);
    await expect(page).toHaveURL(/\/reset-password\?token=/);
    await page.getByLabel("New password").fill(resetPassword);
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect(page).toHaveURL(urlIs("/login"));
    await expect(toast(page, messages.auth.passwordReset)).toBeVisible();

    // The used link says so at once, with no form to fill in first.
    await page.goto(resetLink);
    await expect(page.getByRole("alert")).toHaveText(messages.auth.resetLinkInvalid);
    await expect(page.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/forgot-password");
    await expect(page.getByLabel("New password")).toHaveCount(0);

    // A link used up elsewhere while its page was open: sending the form says so, with the way to a new one.
    const earlierMails = mailsWithLink(person.email, "/reset-password");
    await page.getByRole("link", { name: "Ask for a new link" }).click();
    await page.getByLabel("Email").fill(person.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByText(messages.auth.resetLinkSent)).toBeVisible();
    const secondLink = await linkFromMail(person.email, "/reset-password", earlierMails);
    await page.goto(secondLink);
    await page.getByLabel("New password").fill("typed-too-late-after-all-5");
    const elsewhere = await page.request.post("/api/auth/reset-password", {
      data: { token: new URL(secondLink).searchParams.get("token"), newPassword: resetPassword },
      headers: { Origin: baseURL! },
    });
    expect(elsewhere.status()).toBe(200);
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect(page.getByRole("alert")).toHaveText(messages.auth.resetLinkInvalid);
    await expect(page.getByRole("link", { name: "Ask for a new link" })).toBeVisible();
    await expect(page.getByLabel("New password")).toHaveCount(0);

    // Only the newest password opens the account.
    for (const oldPassword of [person.password, changedPassword]) {
      await page.goto("/login");
      await submitLogin(page, { email: person.email, password: oldPassword });
      await expect(page.getByRole("alert")).toHaveText(messages.auth.invalidCredentials);
    }
    await page.goto("/login");
    await submitLogin(page, { email: person.email, password: resetPassword });
    await expect(toast(page, messages.auth.loggedIn)).toBeVisible();
    await expect(mainNav(page).getByRole("link", { name: "Your profile" })).toBeVisible();
    allowStatusLogs(consoleErrors, 400);
  });

  test("the forms name what is missing or wrong beside each field", async ({ page, shopDb, consoleErrors }) => {
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });

    // Checked in the browser, before anything is sent.
    await page.goto("/register");
    await hydrated(page.locator("form"));
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByLabel("Full Name")).toHaveAccessibleDescription(messages.validation.nameRequired);
    await expect(page.getByLabel("Username")).toHaveAccessibleDescription(messages.validation.usernameRequired);
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription(messages.validation.emailRequired);
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription(messages.validation.passwordRequired);
    for (const text of [messages.validation.nameRequired, messages.validation.usernameRequired, messages.validation.emailRequired, messages.validation.passwordRequired]) {
      await expect(page.getByText(text, { exact: true })).toBeVisible();
    }

    const person = newPerson();
    await page.getByLabel("Full Name").fill(person.name);
    await page.getByLabel("Username").fill(person.username);
    await page.getByLabel("Email").fill("nope");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription(messages.validation.invalidEmail);
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription(messages.validation.passwordTooShort);
    await expect(page.getByText(messages.validation.nameRequired)).toHaveCount(0);

    await page.getByLabel("Username").fill("no spaces!");
    await page.getByLabel("Email").fill(person.email);
    await page.getByLabel("Password").fill("a".repeat(129));
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByLabel("Username")).toHaveAccessibleDescription(messages.validation.usernameInvalid);
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription(messages.validation.passwordTooLong);
    await expect(page.getByLabel("Email")).not.toHaveAttribute("aria-invalid", "true");

    await page.goto("/login");
    await hydrated(page.locator("form"));
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription(messages.validation.emailRequired);
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription(messages.validation.passwordRequired);
    expect(posts, "the browser-side check sends nothing").toEqual([]);

    // Checked by the server: a common password, a username already in use.
    const existing = newPerson();
    await registerAndVerify(page, existing);
    await logOut(page);
    posts.length = 0;

    await page.goto("/register");
    await hydrated(page.locator("form"));
    await submitRegistration(page, { ...person, password: "password123" });
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription(messages.validation.passwordTooCommon);

    await submitRegistration(page, { ...person, username: existing.username });
    await expect(page.getByLabel("Username")).toHaveAccessibleDescription(messages.auth.usernameTaken);
    await expect(page).toHaveURL(urlIs("/register"));

    // An e-mail already in use gets what a new one gets (nobody learns who has an account); its owner is told
    // by e-mail instead (decision 015).
    await submitRegistration(page, { ...person, email: existing.email });
    await expect(page).toHaveURL(urlIs("/verify"));
    await expect(toast(page, messages.auth.accountCreated)).toBeVisible();
    await expect(page.getByText(messages.auth.verificationSent)).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(existing.email);
    const notice = await mailWithSubject(existing.email, "Someone tried to create a Plant Shop account with your e-mail");
    expect(notice.text).toContain("/forgot-password");
    expect(posts, "these went to the server").toHaveLength(3);
    expect(await shopDb.db.selectFrom("users").select("id").where("email", "=", person.email).execute()).toEqual([]);
    expect(await shopDb.db.selectFrom("users").select("name").where("email", "=", existing.email).execute()).toEqual([{ name: existing.name }]);
    allowStatusLogs(consoleErrors, 400, 409);
  });

  test("the profile form names what is missing or wrong beside each field", async ({ page, shopDb, consoleErrors }) => {
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    const userId = await registerAndVerify(page, newPerson());
    await page.goto(`/profile/${userId}?edit`);
    const form = formWithHeading(page, messages.profile.personalInformation);
    await hydrated(form);
    const save = form.getByRole("button", { name: "Save", exact: true });
    posts.length = 0;

    // Checked in the browser, before anything is sent.
    for (const label of ["Full Name", "Username", "Phone Number"]) await form.getByLabel(label).fill("");
    await form.getByLabel("Address", { exact: true }).fill("");
    await save.click();
    await expect(form.getByLabel("Full Name")).toHaveAccessibleDescription(messages.validation.fullNameRequired);
    await expect(form.getByLabel("Username")).toHaveAccessibleDescription(messages.validation.usernameRequired);
    await expect(form.getByLabel("Phone Number")).toHaveAccessibleDescription(messages.validation.phoneRequired);
    await expect(form.getByLabel("Address", { exact: true })).toHaveAccessibleDescription(messages.validation.addressRequired);

    await form.getByLabel("Full Name").fill("Asha K. Rao");
    await form.getByLabel("Phone Number").fill("+91 98765 43210");
    await form.getByLabel("Address", { exact: true }).fill("12 Lalbagh Road, Bengaluru");
    await form.getByLabel("Profile Picture").setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(MAX_IMAGE_BYTES + 1) });
    await save.click();
    await expect(form.getByLabel("Profile Picture")).toHaveAccessibleDescription(messages.images.tooLarge);
    expect(posts, "the browser-side checks send nothing").toEqual([]);

    // Checked by the server: a username someone else has, a file that is no picture.
    const admin = await shopDb.db.selectFrom("users").select("username").where("email", "=", ADMIN.email).executeTakeFirstOrThrow();
    await form.getByLabel("Username").fill(admin.username!);
    await form.getByLabel("Profile Picture").setInputFiles([]);
    await save.click();
    await expect(form.getByLabel("Username")).toHaveAccessibleDescription(messages.auth.usernameTaken);

    await form.getByLabel("Username").fill(`asha_${Date.now().toString(36)}`);
    await form.getByLabel("Profile Picture").setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("just some notes") });
    await save.click();
    await expect(form.getByLabel("Profile Picture")).toHaveAccessibleDescription(messages.images.unsupported);
    await expect(page.getByText(messages.images.unsupported), "only beside the field, not also above the form").toHaveCount(1);
    await expect(form.getByRole("alert")).toHaveCount(0);
    expect(posts, "these went to the server").toHaveLength(2);
    const stored = await shopDb.db.selectFrom("users").select(["name", "image"]).where("id", "=", userId).executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: "Asha Kulkarni", image: null });
    allowStatusLogs(consoleErrors, 400, 409);
  });

  test("the login form answers without JavaScript too", async ({ page, browser, baseURL }) => {
    const person = newPerson();
    await registerAndVerify(page, person);

    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    try {
      const noScript = await context.newPage();
      await noScript.goto("/login");
      await noScript.getByRole("button", { name: "Login" }).click();
      await expect(noScript.getByLabel("Email")).toHaveAccessibleDescription(messages.validation.emailRequired);
      await expect(noScript.getByText(messages.validation.emailRequired)).toBeVisible();

      await submitLogin(noScript, { email: person.email, password: "not-my-password-1" });
      await expect(noScript.getByRole("alert")).toHaveText(messages.auth.invalidCredentials);
      await expect(noScript).toHaveURL(/\/login/);
    } finally {
      await context.close();
    }
  });

  test("wrong credentials get one answer that does not tell whether the e-mail exists", async ({ page, consoleErrors }) => {
    const person = newPerson();
    await registerAndVerify(page, person);
    await logOut(page);

    await page.goto("/login");
    await submitLogin(page, { email: `nobody.${Date.now()}@example.com`, password: person.password });
    await expect(page.getByRole("alert")).toHaveText(messages.auth.invalidCredentials);
    const unknownEmail = await page.getByRole("alert").textContent();

    await page.goto("/login");
    await submitLogin(page, { email: person.email, password: "wrong-password-42" });
    await expect(page.getByRole("alert")).toHaveText(messages.auth.invalidCredentials);
    expect(await page.getByRole("alert").textContent()).toBe(unknownEmail);
    await expect(page.getByLabel("Email")).not.toHaveAttribute("aria-invalid", "true");
    allowStatusLogs(consoleErrors, 400);
  });

  test("an account guessed at from many addresses asks at login for the code it e-mailed, and the owner gets in with it", async ({ page, shopDb, consoleErrors }) => {
    const person = newPerson();
    await registerAndVerify(page, person);
    await logOut(page);
    // Many wrong passwords from all over, counted by the rate-limit module itself on the account's counter until it
    // is past its threshold. Typing them here would take a thousand argon2 checks at this server's scaled limits,
    // and from one address the per-address limits would refuse the attempts long before the account's count is
    // reached: the guesser this protects against is spread over many addresses, which a browser test cannot be.
    const limiter = createRateLimiter(shopDb.db, { scale: E2E_RATE_LIMIT_SCALE, dialect: shopDb.dialect });
    while (await limiter.tryHit(authRateRules.signInFailuresForAccount, person.email.toLowerCase()));

    await page.goto("/login");
    await submitLogin(page, person);
    await expect(page.getByRole("alert")).toHaveText(messages.auth.signInCodeSent);
    const codeField = page.getByLabel(messages.auth.signInCodeLabel);
    await expect(codeField).toBeVisible();
    await expect(page.getByLabel("Password"), "the password typed is kept for the second step").toHaveValue(person.password);
    const code = (await mailWithSubjectMatching(person.email, /sign-in code: \d{6}$/)).subject.slice(-6);

    await codeField.fill(code === "111111" ? "222222" : "111111");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(codeField).toHaveAccessibleDescription(messages.auth.signInCodeWrong);

    await codeField.fill(code);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(toast(page, messages.auth.loggedIn)).toBeVisible();
    await expect(mainNav(page).getByRole("link", { name: "Your profile" })).toBeVisible();
    allowStatusLogs(consoleErrors, 400, 403);
  });

  test("an unverified user is told to verify and can have the mail sent again", async ({ page, consoleErrors }) => {
    const person = newPerson();
    await register(page, person);
    await linkFromMail(person.email, "/verify");
    const signUpMails = mailsWithLink(person.email, "/verify");

    await page.goto("/login");
    await submitLogin(page, person);
    await expect(page.getByRole("alert")).toHaveText(messages.auth.emailNotVerified);
    // 'We have sent you a new link': logging in sent one.
    await linkFromMail(person.email, "/verify", signUpMails);

    const resend = page.getByRole("link", { name: messages.auth.resendVerification });
    await expect(resend).toHaveAttribute("href", "/verify");
    await resend.click();
    await expect(page).toHaveURL(urlIs("/verify"));
    await expect(page.getByText(messages.auth.verificationSent)).toBeVisible();
    const before = mailsWithLink(person.email, "/verify");
    await expect(page.getByLabel("Email"), "the address the login named").toHaveValue(person.email);
    await page.getByRole("button", { name: messages.auth.resendVerification }).click();
    await expect(page.getByText(messages.auth.verificationResent)).toBeVisible();
    const newest = await linkFromMail(person.email, "/verify", before);

    // The new link works.
    await page.goto(newest);
    await expect(page).toHaveURL(urlIs("/"));
    await expect(toast(page, messages.auth.emailVerified)).toBeVisible();
    allowStatusLogs(consoleErrors, 403);
  });

  test("a bad verification link fails; a used one offers to log in; a verified user is sent home from /verify", async ({ page }) => {
    await page.goto("/verify?token=garbage");
    await expect(page.getByRole("heading", { name: messages.auth.verifyFailed })).toBeVisible();

    const person = newPerson();
    await registerAndVerify(page, person);
    await page.goto("/verify");
    await expect(page).toHaveURL(urlIs("/"));
    await expect(mainNav(page).getByRole("link", { name: "Your profile" })).toBeVisible();

    // The same link again, logged out: it signs nobody in, so it says the address is verified and offers to log in.
    await logOut(page);
    await page.goto(await linkFromMail(person.email, "/verify"));
    await expect(page.getByRole("heading", { name: messages.auth.emailAlreadyVerified })).toBeVisible();
    await expect(page.getByText(messages.auth.logInToContinue)).toBeVisible();
    await expect(page.getByText(messages.auth.emailVerified, { exact: true })).toHaveCount(0);
    await expect(mainNav(page).getByRole("link", { name: "Login" })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Login" }).click();
    await submitLogin(page, person);
    await expect(toast(page, messages.auth.loggedIn)).toBeVisible();
  });

  test("a verification link opened in another browser than the sign-up's asks for the account's password: a wrong one verifies nothing, the right one verifies and signs in", async ({
    page,
    browser,
    baseURL,
  }) => {
    const person = newPerson();
    await register(page, person);
    const link = await linkFromMail(person.email, "/verify");

    // Another browser: perhaps the owner on a second device, perhaps the owner of an address a stranger signed up with.
    const context = await browser.newContext({ baseURL });
    try {
      const elsewhere = await context.newPage();
      await elsewhere.goto(link);
      await expect(elsewhere.getByRole("heading", { name: messages.auth.confirmEmailHeading })).toBeVisible();
      await expect(elsewhere.getByText(messages.auth.confirmEmailWithPassword)).toBeVisible();
      await expect(mainNav(elsewhere).getByRole("link", { name: "Login" }), "nobody is signed in yet").toBeVisible();

      const password = elsewhere.getByLabel("Password");
      const confirm = elsewhere.getByRole("button", { name: messages.auth.confirmEmail });
      await hydrated(confirm);
      await confirm.click();
      await expect(password).toHaveAccessibleDescription(messages.validation.passwordRequired);
      await password.fill("not-my-password-1");
      await confirm.click();
      await expect(password).toHaveAccessibleDescription(messages.auth.wrongPasswordToVerify);
      await expect(mainNav(elsewhere).getByRole("link", { name: "Login" })).toBeVisible();

      await password.fill(person.password);
      await confirm.click();
      await expect(elsewhere).toHaveURL(urlIs("/"));
      await expect(toast(elsewhere, messages.auth.emailVerified)).toBeVisible();
      await expect(mainNav(elsewhere).getByRole("link", { name: "Your profile" })).toBeVisible();
    } finally {
      await context.close();
    }

    // The browser that signed up: the same link now says the address is verified already.
    await page.goto(link);
    await expect(page.getByRole("heading", { name: messages.auth.emailAlreadyVerified })).toBeVisible();
  });

  test("the login, register and password screens show their card without the top bar", async ({ page }) => {
    for (const [path, heading] of [
      ["/login", messages.auth.loginHeading],
      ["/register", messages.auth.registerHeading],
      ["/forgot-password", "Reset your password"],
      ["/reset-password?token=garbage", "Choose a new password"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading }), path).toBeVisible();
      await expect(mainNav(page), path).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Plant Shop", exact: true }), `${path}: one logo, the card's`).toHaveCount(1);
    }
    // Moving between them in the browser as well.
    await page.goto("/login");
    await hydrated(page.locator("form"));
    await page.getByRole("link", { name: messages.auth.forgotPassword }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Reset your password" })).toBeVisible();
    await expect(mainNav(page)).toHaveCount(0);
    await page.getByRole("link", { name: "Back to Login" }).click();
    await expect(page.getByRole("heading", { level: 1, name: messages.auth.loginHeading })).toBeVisible();
    await page.getByRole("link", { name: "Plant Shop", exact: true }).click();
    await expect(page).toHaveURL(urlIs("/"));
    await expect(mainNav(page)).toBeVisible();
  });

  test("login returns to the page that sent you; admin pages are for admins", async ({ page, consoleErrors }) => {
    const person = newPerson();
    await registerAndVerify(page, person);
    await expect(mainNav(page).getByRole("link", { name: "Add Products" })).toHaveCount(0);
    await logOut(page);

    await page.goto("/add-product");
    await expect(page).toHaveURL(urlIs("/login?redirectTo=%2Fadd-product"));
    await submitLogin(page, person);
    await expect(page).toHaveURL(urlIs("/add-product"));
    await expect(page.getByRole("heading", { name: messages.auth.forbidden })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Add Product", exact: true })).toHaveCount(0);
    const forbidden = await page.request.get("/add-product");
    expect(forbidden.status()).toBe(403);
    expect(await forbidden.text()).toContain(messages.auth.forbidden);

    await page.goto("/");
    await logOut(page);
    await page.goto("/add-product");
    await expect(page).toHaveURL(urlIs("/login?redirectTo=%2Fadd-product"));
    await submitLogin(page, ADMIN);
    await expect(page).toHaveURL(urlIs("/add-product"));
    await expect(page.getByRole("heading", { name: "Add Product", exact: true })).toBeVisible();
    await expect(mainNav(page).getByRole("link", { name: "Add Products" })).toHaveAttribute("href", "/add-product");
    expect((await page.request.get("/add-product")).status()).toBe(200);
    allowStatusLogs(consoleErrors, 403);
  });

  test("a profile seen by someone else shows only the public part", async ({ page, baseURL, consoleErrors }) => {
    const person = newPerson();
    const userId = await registerAndVerify(page, person);
    const privateDetails = { phone: "+91 80 2222 3333", address: "7 Cubbon Park Lane, Bengaluru" };
    // Saved by the person themselves, through the profile API their session may use.
    const saved = await page.request.patch(`/api/profiles/${userId}`, {
      headers: { Origin: baseURL! },
      data: { name: person.name, username: person.username, ...privateDetails, location: "Mysuru, India" },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    await logOut(page);

    async function expectPublicProfile(viewer: string) {
      await page.goto(`/profile/${userId}`);
      await expect(page.getByRole("heading", { level: 1 }), viewer).toHaveText(person.name);
      await expect(page.getByText(`@${person.username}`, { exact: true }), viewer).toBeVisible();
      await expect(page.getByText("Mysuru, India", { exact: true }), viewer).toBeVisible();
      const avatar = page.getByRole("img", { name: `${person.name}'s picture` });
      await expect(avatar, viewer).toBeVisible();
      await expect.poll(() => avatar.evaluate((img) => (img as HTMLImageElement).naturalWidth), { message: `${viewer}: the avatar loads` }).toBeGreaterThan(0);
      const main = page.getByRole("main");
      for (const secret of [person.email, privateDetails.phone, privateDetails.address]) {
        await expect(main, viewer).not.toContainText(secret);
      }
      await expect(page.getByRole("link", { name: "Edit profile" }), viewer).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Change password" }), viewer).toHaveCount(0);
      // Not even in the data sent along with the page.
      const html = await (await page.request.get(`/profile/${userId}`)).text();
      for (const secret of [person.email, privateDetails.phone, privateDetails.address]) expect(html, viewer).not.toContain(secret);
    }

    await expectPublicProfile("a visitor");
    await logIn(page, ADMIN);
    await expectPublicProfile("another user");

    const missing = await page.goto("/profile/unknown");
    expect(missing?.status()).toBe(404);
    await expect(page.getByText(messages.profile.noUserData)).toBeVisible();
    allowStatusLogs(consoleErrors, 404);
  });
});

test.describe("accounts on small screens", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  async function openMenu(page: Page) {
    const open = page.getByRole("button", { name: "Open menu" });
    await hydrated(open);
    await open.click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu).toBeVisible();
    return menu;
  }

  test("the menu lists what a visitor and an admin may use", async ({ page }) => {
    await page.goto("/");
    let menu = await openMenu(page);
    await expect(menu.getByRole("link")).toHaveText(["Home", "Cart", "Login"]);
    await expect(menu.getByRole("button", { name: "Logout" })).toHaveCount(0);

    await logIn(page, ADMIN);
    await expect(page).toHaveURL(urlIs("/"));
    menu = await openMenu(page);
    await expect(menu.getByRole("link")).toHaveText(["Home", "Shop", "Orders", "Wishlist", "Admin", "Add Products", "Profile", "Cart"]);
    await expect(menu.getByRole("button", { name: "Logout" })).toBeVisible();
  });

  test("the menu lists what a logged-in shopper may use, with their picture beside Profile", async ({ page }) => {
    const person = newPerson();
    const userId = await registerAndVerify(page, person);
    const menu = await openMenu(page);
    await expect(menu.getByRole("link")).toHaveText(["Home", "Shop", "Orders", "Wishlist", "Profile", "Cart"]);
    await expect(menu.getByRole("link", { name: "Add Products" })).toHaveCount(0);
    await expect(menu.getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);
    const profile = menu.getByRole("link", { name: "Profile" });
    await expect(profile).toHaveAttribute("href", `/profile/${userId}`);
    await expect(profile.locator("img")).toHaveAttribute("src", `/avatars/initials.svg?name=${encodeURIComponent(person.name)}`);
    await expect(menu.getByRole("button", { name: "Logout" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Login" })).toHaveCount(0);
  });
});
