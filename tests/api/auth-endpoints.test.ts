import { betterAuth } from "better-auth";
import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { DISABLED_AUTH_PATHS, OPEN_AUTH_PATHS } from "../../server/modules/accounts/index.ts";
import { newPerson, signUpVerified } from "../support/accounts.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { postJson } from "../support/test-app.ts";

// Better Auth mounts more endpoints than the shop uses; those it does not use are switched off, so nobody can
// reach a flow the shop never checked (server/modules/accounts/auth/auth-rules.ts).

const shop = useAppWithMail();

const userRow = (userId: string) => shop.app.database.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();

describe("Better Auth's endpoints", () => {
  it("are each either one the shop uses or switched off, so a new one needs a decision", () => {
    const mounted = Object.values(betterAuth(shop.app.services.authOptions).api)
      .map((endpoint) => (endpoint as { path?: string }).path)
      .filter((path): path is string => typeof path === "string");
    const decided: string[] = [...OPEN_AUTH_PATHS, ...DISABLED_AUTH_PATHS];
    expect(mounted.filter((path) => !decided.includes(path))).toEqual([]);
    expect(decided.filter((path) => !mounted.includes(path))).toEqual([]);
  });

  it("that are switched off answer 404, with or without a trailing slash", async () => {
    const { cookie } = await signUpVerified(shop.app, shop.capture);
    for (const path of DISABLED_AUTH_PATHS) {
      for (const url of [`/api/auth${path}`, `/api/auth${path}/`]) {
        const post = await shop.app.request(url, postJson({}, { Cookie: cookie }));
        const get = await shop.app.request(url, { headers: { Cookie: cookie } });
        expect([url, post.status, get.status]).toEqual([url, 404, 404]);
      }
    }
    // A social provider's return address, as a stranger would call it: no provider is configured.
    expect((await shop.app.request("/api/auth/callback/google?state=abc&code=1")).status).toBe(404);
  });
});

describe("signing in by username", () => {
  it("is not possible, so no sign-in gets around the limits on /sign-in/email", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    for (let i = 0; i < 8; i++) {
      const response = await shop.app.request("/api/auth/sign-in/username", postJson({ username: person.username, password: `wrong-password-${i}` }));
      expect(response.status).toBe(404);
    }
    const right = await shop.app.request("/api/auth/sign-in/username", postJson({ username: person.username, password: person.password }));
    expect(right.status).toBe(404);
    expect(right.headers.getSetCookie()).toEqual([]);
  });
});

describe("a signed-in user", () => {
  it("cannot set their picture, shown username or name through Better Auth's /update-user", async () => {
    const { cookie, userId, person } = await signUpVerified(shop.app, shop.capture);
    const before = await userRow(userId);
    const response = await shop.app.request(
      "/api/auth/update-user",
      postJson({ image: "/media/0123456789abcdef0123456789abcdef.webp", displayUsername: "Admin", name: "x".repeat(60_000) }, { Cookie: cookie }),
    );
    expect(response.status).toBe(404);
    expect(await userRow(userId)).toEqual(before);
    expect(before).toMatchObject({ image: null, name: person.name, displayUsername: person.username });
  });
});

describe("a JSON sign-up", () => {
  it("stores only the register form's fields: no picture, and the shown username is the username", async () => {
    const person = newPerson();
    const response = await shop.app.request(
      "/api/auth/sign-up/email",
      postJson({ ...person, image: "/media/0123456789abcdef0123456789abcdef.webp", displayUsername: "Shop_Owner" }),
    );
    expect(response.status).toBe(200);
    const user = await shop.app.database.db.selectFrom("users").selectAll().where("email", "=", person.email).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ image: null, username: person.username, displayUsername: person.username, name: person.name });
  });

  it("is checked with the register form's rules", async () => {
    for (const [body, message] of [
      [newPerson({ name: "x".repeat(60_000) }), "At most 100 characters"],
      [newPerson({ name: "   " }), messages.validation.nameRequired],
      [newPerson({ username: "no spaces please" }), messages.validation.usernameInvalid],
    ] as const) {
      const response = await shop.app.request("/api/auth/sign-up/email", postJson(body));
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(message);
      expect(await shop.app.database.db.selectFrom("users").select("id").where("email", "=", body.email).execute()).toEqual([]);
    }
  });
});
