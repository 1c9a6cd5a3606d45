// HTTP for share cards: GET /og/{username}.png and GET /og/{username}/{prismId}.png, PNGs the
// same for everyone, tagged by what they show (304 from memory while it stands). Errors come in
// the API's error shape (404 for a member who is not there or a prism not theirs).
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { cardQuery, prismCardParams, profileCardParams } from "../../../contract/card-request.ts";
import type { AppDeps } from "../../app.ts";
import { sendAnswer } from "../../plugins/conditional.ts";
import { cardReads } from "./reads.ts";
import { prepareRenderer } from "./render.ts";

export const cardsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const reads = cardReads(deps);
  // The first card waits for the fonts and the layout engine: readied once the server listens,
  // so that no visitor's card does. Tests that never listen never pay for it.
  app.addHook("onListen", async () => {
    prepareRenderer().catch((error: unknown) =>
      app.log.error({ err: error }, "The share-card renderer could not start"),
    );
  });
  const tags = ["cards"];

  app.get(
    "/og/:username.png",
    {
      schema: {
        tags,
        summary: "The share card of a member's page, 1200 × 630 (conditional: ETag)",
        params: profileCardParams,
        querystring: cardQuery,
      },
      config: {
        etag: (request) => reads.cardEtag((request.params as { username: string }).username, null),
      },
    },
    async (request, reply) => {
      const card = await reads.card(request.params.username, null);
      return sendAnswer(request, reply.type("image/png"), card);
    },
  );

  app.get(
    "/og/:username/:prismId.png",
    {
      schema: {
        tags,
        summary: "The share card of one of a member's prisms, 1200 × 630 (conditional: ETag)",
        params: prismCardParams,
        querystring: cardQuery,
      },
      config: {
        etag: (request) => {
          const { username, prismId } = request.params as { username: string; prismId: string };
          return reads.cardEtag(username, Number(prismId));
        },
      },
    },
    async (request, reply) => {
      const card = await reads.card(request.params.username, request.params.prismId);
      return sendAnswer(request, reply.type("image/png"), card);
    },
  );
};
