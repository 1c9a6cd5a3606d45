// HTTP for prisms: a member's list, and the owner's writes.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { limits } from "../../../contract/limits.ts";
import { idParam } from "../../../contract/paging.ts";
import {
  moveSchema,
  prismInputSchema,
  prismMessages,
  prismSchema,
  respondersInputSchema,
} from "../../../contract/prisms.ts";
import {
  revisionParams,
  revisionSchema,
  revisionSummarySchema,
} from "../../../contract/revisions.ts";
import { cachedRead } from "../../cache/cached-read.ts";
import {
  createPrism,
  deletePrism,
  movePrism,
  restoreRevision,
  savePrism,
  setResponders,
} from "../../commands/prisms.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { requireUser } from "../../plugins/session.ts";
import { presentPrism } from "./presenter.ts";
import { prismReads } from "./reads.ts";
import { getRevision, listRevisions } from "./revisions.ts";

const errors = errorResponses(400, 401, 403, 404, 429);

const tags = ["prisms"];
const idParams = z.object({ id: idParam });

/** What pages read of prisms: a member's list, and a prism's versions. */
export const prismsReadRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  const reads = prismReads(deps);

  app.get("/prisms/:username", {
    schema: {
      tags,
      summary: "A member's prisms, in order (conditional: ETag / If-None-Match)",
      params: reads.list.params,
      response: { 200: z.array(prismSchema), ...errorResponses(404) },
    },
    ...cachedRead(reads.list),
  });

  app.get(
    "/prisms/:id/revisions",
    {
      schema: {
        tags,
        summary: "A prism's versions, newest first, the current one included (owner and admins)",
        params: idParams,
        response: { 200: z.array(revisionSummarySchema), ...errorResponses(404) },
      },
    },
    async (request) => listRevisions(db, request.user, request.params.id),
  );

  app.get(
    "/prisms/:id/revisions/:number",
    {
      schema: {
        tags,
        summary: "One version of a prism, with its content (owner and admins)",
        params: revisionParams,
        response: { 200: revisionSchema, ...errorResponses(404) },
      },
    },
    async (request) => getRevision(db, request.user, request.params.id, request.params.number),
  );
};

/** What an owner changes of their prisms, each write spending from one budget per member. */
/** What each write takes and answers. */
const writeSchemas = {
  create: {
    tags,
    summary: "Add a prism at the end of the signed-in member's page",
    body: prismInputSchema,
    response: { 201: prismSchema, ...errors, ...errorResponses(409) },
  },
  save: {
    tags,
    summary: "Change a prism's title and content (owner only)",
    params: idParams,
    body: prismInputSchema,
    response: { 200: prismSchema, ...errors },
  },
  remove: {
    tags,
    summary: "Delete a prism (owner only)",
    params: idParams,
    response: { 204: z.null(), ...errors },
  },
  move: {
    tags,
    summary: "Swap a prism with its neighbour (owner only)",
    params: idParams,
    body: moveSchema,
    response: { 200: prismSchema, ...errors },
  },
  responders: {
    tags,
    summary: "Choose who may respond to a prism: anyone, members or no-one (owner only)",
    params: idParams,
    body: respondersInputSchema,
    response: { 200: prismSchema, ...errors },
  },
  restore: {
    tags,
    summary: "Make a version the prism's current one, saved as a new version (owner only)",
    params: revisionParams,
    response: { 200: prismSchema, ...errors },
  },
};

export const prismsWriteRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const writes = {
    rateLimit: {
      message: prismMessages.tooManyWrites,
      limits: [
        new Limit(deps.limitStore, "prism-writes", limits.prismWritesPerMinute, 1, by.member),
      ],
    },
  };
  const as = writer(deps);

  app.post(
    "/prisms",
    {
      schema: writeSchemas.create,
      config: writes,
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(presentPrism(await createPrism(as(requireUser(request)), request.body))),
  );

  app.put(
    "/prisms/:id",
    {
      schema: writeSchemas.save,
      config: writes,
    },
    async (request) =>
      presentPrism(await savePrism(as(requireUser(request)), request.params.id, request.body)),
  );

  app.delete(
    "/prisms/:id",
    {
      schema: writeSchemas.remove,
      config: writes,
    },
    async (request, reply) => {
      await deletePrism(as(requireUser(request)), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.put(
    "/prisms/:id/move",
    {
      schema: writeSchemas.move,
      config: writes,
    },
    async (request) =>
      presentPrism(
        await movePrism(as(requireUser(request)), request.params.id, request.body.direction),
      ),
  );

  app.put(
    "/prisms/:id/responders",
    {
      schema: writeSchemas.responders,
      config: writes,
    },
    async (request) =>
      presentPrism(
        await setResponders(as(requireUser(request)), request.params.id, request.body.responders),
      ),
  );

  app.post(
    "/prisms/:id/revisions/:number/restore",
    {
      schema: writeSchemas.restore,
      config: writes,
    },
    async (request) =>
      presentPrism(
        await restoreRevision(as(requireUser(request)), request.params.id, request.params.number),
      ),
  );
};
