import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { MAX_IMAGE_BYTES } from "#common/shared/constants.ts";
import { messages } from "#common/shared/messages.ts";
import { ACCEPTED_IMAGE_TYPES } from "#common/shared/images.ts";
import { privateProfileSchema, profileSchema, profileViewSchema } from "#common/accounts/account-schemas.ts";
import { sessionUserSchema } from "#common/shared/session-user.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import type { ProfilesService } from "./profiles.ts";
import { describeRoute, idParameter, json, jsonBody, problems } from "../../platform/http/api-docs.ts";
import { formPartsLimit } from "../../platform/http/form-parts-limit.ts";
import { currentUser, requestContext } from "../../platform/http/request-context.ts";
import { NotFoundError, UnauthorizedError } from "../../platform/errors.ts";
import { readJson } from "../../platform/http/read-json.ts";

// The picture and the multipart framing around it.
const PICTURE_LIMIT = MAX_IMAGE_BYTES + 64 * 1024;
const userId = idParameter("userId");

export const meApi = new Hono<PlatformEnv>().get(
  "/",
  describeRoute({ summary: "The signed-in person", responses: { 200: json(sessionUserSchema, "Signed in"), ...problems(401) } }),
  async (c) => {
    const user = await currentUser(c);
    if (!user) throw new UnauthorizedError();
    return c.json(user);
  },
);

export const profilesApi = (profiles: ProfilesService) => new Hono<PlatformEnv>()
  .get(
    "/:userId",
    describeRoute({
      summary: "A profile: the public part, or everything for its owner",
      parameters: [userId],
      responses: { 200: json(profileViewSchema, "The profile"), ...problems(404) },
    }),
    async (c) => c.json(await profiles.getProfile(await currentUser(c), c.req.param("userId"))),
  )
  .patch(
    "/:userId",
    describeRoute({
      summary: "Update one's own profile (anyone else gets 404)",
      parameters: [userId],
      requestBody: jsonBody(profileSchema),
      responses: { 200: json(privateProfileSchema, "Saved"), ...problems(400, 404, 409) },
    }),
    async (c) => {
      const profile = await profiles.updateProfile(await currentUser(c), c.req.param("userId"), await readJson(c));
      return c.json(profile);
    },
  );

/** The picture upload is multipart, so it lives outside the JSON-only part of the API. */
export const profilePictureApi = (profiles: ProfilesService) => new Hono<PlatformEnv>().post(
  "/:userId/picture",
  describeRoute({
    summary: `Replace one's own profile picture (${ACCEPTED_IMAGE_TYPES.join(", ")}; at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB); anyone else gets 404`,
    parameters: [userId],
    requestBody: {
      required: true,
      content: { "multipart/form-data": { schema: { type: "object", required: ["image"], properties: { image: { type: "string", format: "binary" } } } } },
    },
    responses: { 200: json(privateProfileSchema, "Saved"), ...problems(400, 404, 413, 429) },
  }),
  bodyLimit({
    maxSize: PICTURE_LIMIT,
    onError: () => {
      throw new HTTPException(413, { message: messages.images.tooLarge });
    },
  }),
  formPartsLimit(() => {
    throw new HTTPException(413, { message: messages.forms.tooLargeDetail });
  }),
  async (c) => {
    // Only the owner may send a picture: anybody else's upload is refused before its 10 MB are read.
    const user = await currentUser(c);
    if (!user || user.id !== c.req.param("userId")) throw new NotFoundError(messages.profile.noUserData);
    const form = await c.req.formData().catch(() => null);
    const file = form?.get("image");
    const picture = file instanceof File ? new Uint8Array(await file.arrayBuffer()) : null;
    return c.json(await profiles.setPicture(user, c.req.param("userId"), picture, requestContext(c)));
  },
);
