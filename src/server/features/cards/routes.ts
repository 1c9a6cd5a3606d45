// HTTP for share cards: GET /og/{username}.png and GET /og/{username}/{prismId}.png, PNGs the
// same for everyone, tagged by what they show (304 from memory while it stands). Errors come in
// the API's error shape (404 for a member who is not there or a prism not theirs). Only the
// current version is drawn: an address that names another (`?v=`) is sent to the current one's.
// A draw spends from its client address's limit; a card kept in memory is answered to anyone.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { cardQuery, prismCardParams, profileCardParams } from "../../../contract/card-request.ts";
import { cardMessages, cardPath, cardVersion } from "../../../contract/cards.ts";
import type { AppDeps } from "../../deps.ts";
import { sendAnswer } from "../../plugins/conditional.ts";
import { by, Limit, spendAll } from "../../plugins/rate-limit.ts";
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
  // A member's page of 50 prisms, with its own card, shared at once: one address draws them all.
  const draws = [new Limit(deps.limitStore, "card-draws", 60, 10, by.address)];

  /** The card, or a redirect to its current version's address when `v` names another. */
  async function answer(
    request: FastifyRequest<{ Querystring: { v?: string } }>,
    reply: FastifyReply,
    username: string,
    prismId: number | null,
  ) {
    const card = await reads.content(username, prismId);
    const { v } = request.query;
    if (v !== undefined && v !== cardVersion(card)) {
      return reply.redirect(cardPath(card.username, prismId, card));
    }
    const png = await reads.image(card, () => spendAll(request, cardMessages.tooMany, draws));
    return sendAnswer(request, reply.type("image/png"), png);
  }

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
    async (request, reply) => answer(request, reply, request.params.username, null),
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
    async (request, reply) =>
      answer(request, reply, request.params.username, request.params.prismId),
  );
};
