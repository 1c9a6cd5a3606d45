// HTTP for profile photos: the signed-in member uploads one (the image's bytes as the body, at
// most 5 MB) or removes it; anyone reads one at its versioned address, which never changes what
// it answers and so may be kept by browsers and caches for a year. An older version's address
// leads to the current one.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { photoMessages } from "../../../contract/photo-messages.ts";
import { photoFilePattern, photoLimits, photoPath } from "../../../contract/photos.ts";
import { currentUserSchema, usernameParam } from "../../../contract/user.ts";
import { removePhoto, uploadPhoto } from "../../commands/photos.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { badRequest, errorResponses, notFound } from "../../http-error.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { requireUser } from "../../plugins/session.ts";
import { presentCurrentUser } from "../users/presenter.ts";
import { readPhoto } from "./service.ts";

const tags = ["settings"];
const IMMUTABLE = "public, max-age=31536000, immutable";

const photoParams = z.object({
  username: usernameParam,
  file: z.string().regex(photoFilePattern, "Not a photo's address"),
});

export const photosRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const as = writer(deps);
  // The upload's bytes as they came: sharp reads them, whatever type the browser said.
  app.addContentTypeParser(
    /^image\//i,
    { parseAs: "buffer", bodyLimit: photoLimits.uploadBytes },
    (_request, body, done) => done(null, body),
  );
  const upload = {
    bodyTypes: { types: /^image\//i, message: photoMessages.notAnImage },
    bodyTooLarge: photoMessages.tooLarge,
    rateLimit: {
      message: "Too many photos in a short while. Try again in a few minutes.",
      limits: [new Limit(deps.limitStore, "photo-uploads", 20, 15, by.member)],
    },
  };

  app.put(
    "/user/photo",
    {
      schema: {
        tags,
        summary:
          "Upload the signed-in member's profile photo: a JPEG, PNG, WebP, GIF or AVIF image as the body (at most 5 MB), made square and stripped of metadata",
        response: { 200: currentUserSchema, ...errorResponses(400, 401, 413, 415, 429) },
      },
      config: upload,
    },
    async (request) => {
      const user = requireUser(request);
      if (!Buffer.isBuffer(request.body)) throw badRequest(photoMessages.notAnImage);
      return presentCurrentUser(await uploadPhoto(as(user), request.body));
    },
  );

  app.delete(
    "/user/photo",
    {
      schema: {
        tags,
        summary: "Remove the signed-in member's profile photo (or Google's picture)",
        response: { 200: currentUserSchema, ...errorResponses(401) },
      },
    },
    async (request) => presentCurrentUser(await removePhoto(as(requireUser(request)))),
  );

  app.get(
    "/users/:username/photo/:file",
    {
      schema: {
        tags: ["users"],
        summary:
          "A member's profile photo (WebP; `{version}.webp` 256 px, `{version}-small.webp` 96 px); another version's address redirects to the current one",
        params: photoParams,
      },
    },
    async (request, reply) => {
      const [, version, small] = photoFilePattern.exec(request.params.file) ?? [];
      const photo = await readPhoto(deps.db, request.params.username, small !== undefined);
      if (!photo) throw notFound("This member has no photo");
      if (photo.version !== version) {
        return reply
          .header("cache-control", "no-cache")
          .redirect(photoPath(photo.username, photo.version, small !== undefined), 302);
      }
      return reply.header("cache-control", IMMUTABLE).type("image/webp").send(photo.image);
    },
  );
};
