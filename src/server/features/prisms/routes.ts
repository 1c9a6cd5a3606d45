// HTTP for prisms: a member's list, and the owner's writes.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBodySchema } from "../../../contract/errors.ts";
import {
  moveSchema,
  prismIdParam,
  prismInputSchema,
  prismSchema,
} from "../../../contract/prisms.ts";
import type { AppDeps } from "../../app.ts";
import { versionKeys } from "../../events/versions.ts";
import { notFound } from "../../http-error.ts";
import { requireUser } from "../../plugins/session.ts";
import { presentPrism } from "./presenter.ts";
import {
  createPrism,
  deletePrism,
  findActiveUser,
  listPrisms,
  movePrism,
  updatePrism,
} from "./service.ts";

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

export const prismsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, bus, versions }) => {
  const tags = ["prisms"];
  const idParams = z.object({ id: prismIdParam });

  app.get(
    "/prisms/:username",
    {
      schema: {
        tags,
        summary: "A member's prisms, in order (conditional: ETag / If-None-Match)",
        params: z.object({ username: z.string().max(100) }),
        response: { 200: z.array(prismSchema), 404: errorBodySchema },
      },
      config: {
        etag: (request) =>
          versions.etag(versionKeys.prismList((request.params as { username: string }).username)),
      },
    },
    async (request) => {
      const owner = await findActiveUser(db, request.params.username);
      if (!owner) throw notFound("User not found");
      return (await listPrisms(db, owner.id)).map(presentPrism);
    },
  );

  app.post(
    "/prisms",
    {
      schema: {
        tags,
        summary: "Add a prism at the end of the signed-in member's page",
        body: prismInputSchema,
        response: { 201: prismSchema, ...errors },
      },
    },
    async (request, reply) => {
      const owner = requireUser(request);
      const prism = await createPrism(db, owner, request.body);
      await bus.publish({ type: "prisms.changed", username: owner.username });
      return reply.status(201).send(presentPrism(prism));
    },
  );

  app.put(
    "/prisms/:id",
    {
      schema: {
        tags,
        summary: "Change a prism's title and content (owner only)",
        params: idParams,
        body: prismInputSchema,
        response: { 200: prismSchema, ...errors },
      },
    },
    async (request) => {
      const owner = requireUser(request);
      const { prism, heartsReset, reanchored } = await updatePrism(
        db,
        owner,
        request.params.id,
        request.body,
      );
      await bus.publish(
        { type: "prisms.changed", username: owner.username },
        ...(reanchored > 0
          ? [{ type: "annotation.changed" as const, prismId: prism.id, username: owner.username }]
          : []),
        ...(heartsReset
          ? [
              {
                type: "heart.changed" as const,
                prismId: prism.id,
                heartsCount: 0,
                username: owner.username,
              },
            ]
          : []),
      );
      return presentPrism(prism);
    },
  );

  app.delete(
    "/prisms/:id",
    {
      schema: {
        tags,
        summary: "Delete a prism (owner only)",
        params: idParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const owner = requireUser(request);
      await deletePrism(db, owner, request.params.id);
      await bus.publish({ type: "prisms.changed", username: owner.username });
      return reply.status(204).send(null);
    },
  );

  app.put(
    "/prisms/:id/move",
    {
      schema: {
        tags,
        summary: "Swap a prism with its neighbour (owner only)",
        params: idParams,
        body: moveSchema,
        response: { 200: prismSchema, ...errors },
      },
    },
    async (request) => {
      const owner = requireUser(request);
      const prism = await movePrism(db, owner, request.params.id, request.body.direction);
      await bus.publish({ type: "prisms.changed", username: owner.username });
      return presentPrism(prism);
    },
  );
};
