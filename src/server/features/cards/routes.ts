// HTTP for share cards: GET /og/{username}.png and GET /og/{username}/{prismId}.png, PNGs the
// same for everyone, tagged by what they show (304 from memory while it stands). Errors come in
// the API's error shape (404 for a member who is not there or a prism not theirs). Only the
// current version is drawn: an address that names another (`?v=`) is sent to the current one's.
// A draw spends from its client address's limit; a card kept in memory is answered to anyone.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { cachedRead } from "../../cache/cached-read.ts";
import type { AppDeps } from "../../deps.ts";
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

  app.get("/og/:username.png", {
    schema: {
      tags,
      summary: "The share card of a member's page, 1200 × 630 (conditional: ETag)",
      params: reads.profile.params,
      querystring: reads.profile.querystring,
    },
    ...cachedRead(reads.profile),
  });

  app.get("/og/:username/:prismId.png", {
    schema: {
      tags,
      summary: "The share card of one of a member's prisms, 1200 × 630 (conditional: ETag)",
      params: reads.prism.params,
      querystring: reads.prism.querystring,
    },
    ...cachedRead(reads.prism),
  });
};
