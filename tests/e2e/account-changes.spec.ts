import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { orderAs } from "./support/api.ts";
import { allowStatusLogs, expect, test } from "./support/fixtures.ts";
import { linkFromMail, mailWithSubjectMatching } from "./support/mail.ts";
import { ADMIN, logIn, logOut, mainNav, submitLogin, submitRegistration, toast, urlIs } from "./support/pages.ts";

// Changing the e-mail address and deleting the account, in the browser, with the mails the server sends
// (decision 040). Each test signs up its own person.

const ac = messages.accountChanges;
const PASSWORD = "calathea-in-the-shade-8";

/** A new person, signed up through /register and verified through the mailed link; the browser is left signed in. */
async function newVerifiedPerson(page: Page, name: string) {
  const tag = randomUUID().slice(0, 8);
  const person = { name, username: `changes_${tag}`, email: `changes.${tag}@example.com`, password: PASSWORD };
  await page.goto("/register");
  await submitRegistration(page, person);
  await expect(page).toHaveURL(urlIs("/verify"));
  await page.goto(await linkFromMail(person.email, "/verify"));
  await expect(toast(page, messages.auth.emailVerified)).toBeVisible();
  return person;
}

async function openOwnProfile(page: Page) {
  await mainNav(page).getByRole("link", { name: "Your profile" }).click();
  await expect(page).toHaveURL(/\/profile\//);
}

test.describe("changing the e-mail address", () => {
  test("the link mailed to the new address changes it; until then the old one signs in; other sessions end and the old address is told", async ({ page, browser }) => {
    // Three browsers, four logins (each an argon2 hash) and four mails waited for: longer than the default.
    test.setTimeout(90_000);
    const person = await newVerifiedPerson(page, "Nisha Pillai");
    const elsewhere = await browser.newContext();
    const other = await elsewhere.newPage();
    await logIn(other, person);

    await openOwnProfile(page);
    await page.getByRole("link", { name: ac.changeEmailLink }).click();
    await expect(page.getByRole("heading", { name: ac.changeEmailHeading })).toBeVisible();
    const newEmail = `moved.${randomUUID().slice(0, 8)}@example.com`;
    await page.getByLabel(ac.newEmailLabel).fill(newEmail);
    await page.getByLabel(ac.passwordLabel).fill(person.password);
    await page.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(page.getByText(ac.confirmationSent(newEmail))).toBeVisible();

    // Not confirmed yet: the old address still signs in.
    const meanwhile = await browser.newContext();
    const third = await meanwhile.newPage();
    await logIn(third, person);
    await meanwhile.close();

    await page.goto(await linkFromMail(newEmail, "/account/email/confirm"));
    await expect(page.getByText(ac.confirmEmailIntro(newEmail))).toBeVisible();
    await page.getByRole("button", { name: ac.confirmEmailButton }).click();
    await expect(toast(page, ac.emailChanged)).toBeVisible();
    await expect(page).toHaveURL(/\/profile\//);

    const told = await mailWithSubjectMatching(person.email, /was changed/);
    expect(told.text).toContain(newEmail);
    await other.goto("/orders");
    await expect(other).toHaveURL(/\/login\?redirectTo=/);
    await elsewhere.close();

    // Signed out for certain before the login page is opened: a logout still under way could otherwise land after it.
    await logOut(page);
    await page.goto("/login");
    await submitLogin(page, { email: newEmail, password: person.password });
    await expect(toast(page, messages.auth.loggedIn)).toBeVisible();
  });
});

test.describe("deleting the account", () => {
  test("with the password: signed out on the home page, the mail sent, the order kept under the delivery name for the admins", async ({ page, shopDb, consoleErrors }) => {
    const person = await newVerifiedPerson(page, "Farhan Qureshi");
    const plant = await createProduct(shopDb.db, { name: `Peace Lily ${randomUUID().slice(0, 8)}`, stock: 5 });
    const shipping = { phone: "+91 98450 67890", address: "7 Marine Drive, Kochi 682031" };
    const order = await orderAs(person, [plant.id], shipping);

    await openOwnProfile(page);
    await page.getByRole("link", { name: ac.deleteAccountLink }).click();
    await expect(page.getByRole("heading", { name: ac.deleteHeading })).toBeVisible();
    await page.getByLabel(ac.passwordLabel).fill(person.password);
    await page.getByRole("button", { name: ac.deleteButton }).click();

    await expect(page).toHaveURL(urlIs("/"));
    await expect(toast(page, ac.accountDeleted)).toBeVisible();
    await expect(mainNav(page).getByRole("link", { name: "Login" })).toBeVisible();
    await mailWithSubjectMatching(person.email, /account has been deleted/);

    await page.goto("/login");
    await submitLogin(page, person);
    await expect(page.getByText(messages.auth.invalidCredentials)).toBeVisible();
    // That refusal is a 400, which the browser logs.
    allowStatusLogs(consoleErrors, 400);

    await logIn(page, ADMIN);
    await page.goto("/admin/orders");
    const row = page.getByRole("main").getByRole("row").filter({ hasText: order.number });
    await expect(row).toContainText(person.name);
    await expect(row).toContainText("account deleted");
  });
});
