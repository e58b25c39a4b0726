import { access, readdir } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { callerWith, newPerson, signUpVerified } from "../support/accounts.ts";
import { MORPHOLOGY_SVG } from "../support/costly-drawings.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// Profile writes: only by the owner, pictures never deleting someone else's file, usernames unique under races.

const shop = useAppWithMail();

const png = (background: string) => sharp({ create: { width: 40, height: 40, channels: 3, background } }).png().toBuffer();

async function uploadPicture(userId: string, cookie: string | null, picture: Buffer) {
  const form = new FormData();
  form.set("image", new File([new Uint8Array(picture)], "me.png", { type: "image/png" }));
  return shop.app.request(`/api/profiles/${userId}/picture`, {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}) },
    body: form,
  });
}

const profileFields = { name: "Asha Kulkarni", phone: "+91 98765 43210", address: "12 Garden Road" };

const mediaFiles = () => readdir(path.join(shop.app.dataDir, "media"));
const imageOf = async (userId: string) =>
  (await shop.app.database.db.selectFrom("users").select("image").where("id", "=", userId).executeTakeFirstOrThrow()).image;
const mediaFile = (url: string) => path.join(shop.app.dataDir, "media", path.basename(url));

describe("a profile picture", () => {
  it("is refused with 413 and a message, unparsed and unsaved, when the form around it has thousands of parts", async () => {
    const asha = await signUpVerified(shop.app, shop.capture);
    const form = new FormData();
    form.set("image", new File([new Uint8Array(await png("#c0643c"))], "me.png", { type: "image/png" }));
    for (let i = 0; i < 20_000; i++) form.append(`f${i}`, "a");
    const response = await shop.app.request(`/api/profiles/${asha.userId}/picture`, {
      method: "POST",
      headers: { Origin: TEST_ORIGIN, Cookie: asha.cookie },
      body: form,
    });
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe(messages.forms.tooLargeDetail);
    expect(await imageOf(asha.userId)).toBeNull();
  });

  it("is refused with 400 and a message naming filters when it is a drawing with feMorphology filters, nothing stored", async () => {
    const asha = await signUpVerified(shop.app, shop.capture);
    const response = await uploadPicture(asha.userId, asha.cookie, Buffer.from(MORPHOLOGY_SVG));
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(messages.images.svgFilters);
    expect(await imageOf(asha.userId)).toBeNull();
    expect(await mediaFiles().catch(() => [])).toEqual([]);
  });

  it("cannot be set by anybody but the owner", async () => {
    const asha = await signUpVerified(shop.app, shop.capture);
    const ravi = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Ravi Menon" }));
    for (const cookie of [ravi.cookie, null]) {
      const response = await uploadPicture(asha.userId, cookie, await png("#c0643c"));
      expect(response.status).toBe(404);
      expect((await response.json()).message).toBe(messages.profile.noUserData);
    }
    expect(await imageOf(asha.userId)).toBeNull();
    expect(await mediaFiles()).toEqual([]);
  });

  it("replaces the owner's old picture, but never deletes a file stored for someone else", async () => {
    const asha = await signUpVerified(shop.app, shop.capture);
    const ravi = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Ravi Menon" }));
    expect((await uploadPicture(asha.userId, asha.cookie, await png("#25632e"))).status).toBe(200);
    const ashaPicture = (await imageOf(asha.userId))!;

    // As Better Auth's /update-user (now off) allowed: Ravi's row points at Asha's picture.
    await shop.app.database.db.updateTable("users").set({ image: ashaPicture }).where("id", "=", ravi.userId).execute();
    expect((await uploadPicture(ravi.userId, ravi.cookie, await png("#3f6f8f"))).status).toBe(200);
    await expect(access(mediaFile(ashaPicture))).resolves.toBeUndefined();
    expect((await shop.app.request(ashaPicture)).status).toBe(200);

    const raviFirst = (await imageOf(ravi.userId))!;
    expect((await uploadPicture(ravi.userId, ravi.cookie, await png("#8f3f5a"))).status).toBe(200);
    await expect(access(mediaFile(raviFirst))).rejects.toThrow();
    expect((await mediaFiles()).sort()).toEqual([path.basename(ashaPicture), path.basename((await imageOf(ravi.userId))!)].sort());
  });
});

describe("a profile update", () => {
  it("keeps the location when a JSON client leaves it out, and clears it when sent empty", async () => {
    const asha = await signUpVerified(shop.app, shop.capture);
    const patch = (body: object) =>
      shop.app.request(`/api/profiles/${asha.userId}`, {
        method: "PATCH",
        headers: { Origin: TEST_ORIGIN, Cookie: asha.cookie, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const username = `asha_${asha.userId.slice(0, 6)}`;
    expect((await patch({ ...profileFields, username, location: "Pune" })).status).toBe(200);
    const without = await patch({ ...profileFields, username, phone: "+91 98765 00000" });
    expect(await without.json()).toMatchObject({ location: "Pune", phone: "+91 98765 00000" });
    expect(await (await patch({ ...profileFields, username, location: "" })).json()).toMatchObject({ location: "" });
  });
});

describe("a username chosen by several people at the same moment", () => {
  it("goes to one of them on a profile; the others are told it is taken", async () => {
    const people = await Promise.all(Array.from({ length: 6 }, (_, i) => signUpVerified(shop.app, shop.capture, newPerson({ name: `Person ${i}` }))));
    const viewers = await Promise.all(
      people.map(async ({ cookie }) => (await shop.app.services.accounts.getSession(callerWith(null, cookie))).user),
    );
    const results = await Promise.allSettled(
      viewers.map((viewer) => shop.app.services.profiles.updateProfile(viewer, viewer?.id, { ...profileFields, username: "fern_lover" })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const refused of results.filter((r) => r.status === "rejected")) {
      expect(refused.reason).toMatchObject({ status: 409, message: messages.auth.usernameTaken, fieldErrors: { username: messages.auth.usernameTaken } });
    }
  });

  it("goes to one of them at sign-up; the others are told it is taken", async () => {
    const request = callerWith("10.2.2.2");
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => shop.app.services.accounts.register(newPerson({ username: "moss_and_fern" }), request)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const refused of results.filter((r) => r.status === "rejected")) {
      expect(refused.reason).toMatchObject({ status: 409, message: messages.auth.usernameTaken, fieldErrors: { username: messages.auth.usernameTaken } });
    }
  });
});
