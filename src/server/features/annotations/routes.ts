// HTTP for annotations: respond to a passage, read what one may see, and decide on them.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { annotationMessages } from "../../../contract/annotation-messages.ts";
import {
  adminAnnotationStatusSchema,
  annotationCreateSchema,
  annotationDecisionSchema,
  annotationSchema,
} from "../../../contract/annotations.ts";
import { idParam } from "../../../contract/paging.ts";
import type { AppDeps } from "../../app.ts";
import {
  decideOnAnnotation,
  setAnnotationStatusAsAdmin,
} from "../../commands/decide-annotation.ts";
import { respondToPassage } from "../../commands/respond-to-passage.ts";
import { errorResponses } from "../../http-error.ts";
import { type Loaded, Memo } from "../../live/memo.ts";
import { versionKeys } from "../../live/versions.ts";
import { answeredUnchanged, sendWritten } from "../../plugins/conditional.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { requireAdmin, requireUser, sessionToken } from "../../plugins/session.ts";
import { participantOf, viewerCookies, viewerOf } from "../../plugins/visitor.ts";
import { canSeeAnnotation } from "../../policy.ts";
import { presentAnnotation } from "./presenter.ts";
import { type AnnotationView, getAnnotation, prismAnnotations } from "./service.ts";

interface PrismAnnotations {
  ownerId: number;
  views: AnnotationView[];
  /** The browsers that wrote some of them anonymously: those see them as their own. */
  visitorHashes: Set<string>;
  /** What everyone else who is not signed in sees, once written. */
  publicAnswer?: string;
}

export const annotationsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, bus, versions, config, secret } = deps;
  const tags = ["annotations"];
  const idParams = z.object({ id: idParam });
  // Each prism's annotations, of every status, kept while none of them, the prism or their
  // authors' names changed; each viewer's answer is made from them in memory.
  const lists = new Memo<number, PrismAnnotations>(versions, bus, {
    maxSize: 16 * 1024 * 1024,
    sizeOf: ({ views }) =>
      views.reduce(
        (bytes, { row }) => bytes + row.annotationText.length + row.selectedText.length + 300,
        0,
      ),
  });
  /**
   * Whether this browser is shown what everyone who is not signed in sees: it carries no session
   * and wrote none of the annotations. Told from the cookies, before the session is read.
   */
  const seesPublic = (request: FastifyRequest, reply: FastifyReply, list: PrismAnnotations) => {
    if (sessionToken(request)) return false;
    const { visitorHash } = viewerOf(request, reply, config, secret);
    return visitorHash === null || !list.visitorHashes.has(visitorHash);
  };
  /**
   * This viewer's tag of a prism's annotations: for the public answer, that of the answer itself,
   * so that annotations it does not show (pending, rejected) leave it as it is; else the versions
   * of what the list was read from. None until the public answer is written.
   */
  const etagOf = (
    request: FastifyRequest,
    reply: FastifyReply,
    { value: list, keys }: Partial<Loaded<PrismAnnotations>> & { value: PrismAnnotations },
  ) => {
    if (seesPublic(request, reply, list)) {
      return list.publicAnswer && versions.answerEtag(list.publicAnswer, viewerCookies(request));
    }
    return keys && versions.etag(keys, viewerCookies(request));
  };
  // Per anonymous browser, per member (known and accountable, so more), and per address.
  const limits = [
    new Limit(10, 10, by.visitor),
    new Limit(30, 10, by.member),
    new Limit(30, 10, by.address),
  ];

  app.post(
    "/annotations",
    {
      schema: {
        tags,
        summary: "Respond to a passage of a prism (members and anonymous visitors)",
        body: annotationCreateSchema,
        response: { 201: annotationSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: { message: annotationMessages.tooMany, limits } },
    },
    async (request, reply) => {
      const participant = participantOf(request, reply, config, secret);
      const { view, events } = await respondToPassage(db, request.body, participant);
      await bus.publish(...events);
      const viewer = {
        user: request.user,
        visitorHash: "visitorHash" in participant ? participant.visitorHash : null,
      };
      return reply.status(201).send(presentAnnotation(view, viewer));
    },
  );

  app.get(
    "/prisms/:prismId/annotations",
    {
      schema: {
        tags,
        summary: "A prism's annotations that this viewer may see, newest first (conditional)",
        params: z.object({ prismId: idParam }),
        response: { 200: z.array(annotationSchema), ...errorResponses(404) },
      },
      config: {
        etag: (request, reply) => {
          const list = lists.current(Number((request.params as { prismId: string }).prismId));
          return list && etagOf(request, reply, list);
        },
      },
    },
    async (request, reply) => {
      const { prismId } = request.params;
      const viewer = viewerOf(request, reply, config, secret);
      const loaded = await lists.get(prismId, async () => {
        const { owner, views } = await prismAnnotations(db, prismId);
        const authors = new Set(views.flatMap((view) => view.author?.username ?? []));
        return {
          value: {
            ownerId: owner.id,
            views,
            visitorHashes: new Set(views.flatMap((view) => view.row.visitorHash ?? [])),
          },
          keys: [
            versionKeys.annotations(prismId),
            versionKeys.ownedPrisms(owner.username),
            // Admins see pending annotations: a list is tagged as one for an admin or not.
            versionKeys.roles(),
            ...[...authors].map(versionKeys.profile),
          ],
        };
      });
      const list = loaded.value;
      const visible = () =>
        list.views
          .filter((view) => canSeeAnnotation(viewer, view.row, { userId: list.ownerId }))
          .map((view) => presentAnnotation(view, viewer));
      const personal = !seesPublic(request, reply, list);
      if (!personal && list.publicAnswer === undefined) {
        list.publicAnswer = String(reply.serialize(visible()));
      }
      // Tagged here when the tag was not known before the read.
      const etag = request.etag === undefined && etagOf(request, reply, loaded);
      if (etag && answeredUnchanged(request, reply, etag)) return reply;
      return personal || list.publicAnswer === undefined
        ? visible()
        : sendWritten(reply, list.publicAnswer);
    },
  );

  app.get(
    "/annotations/:id",
    {
      schema: {
        tags,
        summary: "One annotation, if this viewer may see it",
        params: idParams,
        response: { 200: annotationSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request, reply, config, secret);
      return presentAnnotation(await getAnnotation(db, request.params.id, viewer), viewer);
    },
  );

  app.put(
    "/annotations/:id/status",
    {
      schema: {
        tags,
        summary: "Approve or reject a pending annotation (the prism's owner or an admin)",
        params: idParams,
        body: annotationDecisionSchema,
        response: { 200: annotationSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const actor = requireUser(request);
      const { view, events } = await decideOnAnnotation(
        db,
        actor,
        request.params.id,
        request.body.status,
      );
      await bus.publish(...events);
      return presentAnnotation(view, viewerOf(request, reply, config, secret));
    },
  );

  app.put(
    "/prisms/0/annotations/:id/status",
    {
      schema: {
        tags,
        summary: "Set any annotation's status (admins; audited)",
        params: idParams,
        body: adminAnnotationStatusSchema,
        response: { 200: annotationSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { view, events } = await setAnnotationStatusAsAdmin(
        db,
        requireAdmin(request),
        request.params.id,
        request.body.status,
      );
      await bus.publish(...events);
      return presentAnnotation(view, viewerOf(request, reply, config, secret));
    },
  );
};
