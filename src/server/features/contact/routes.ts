// HTTP for the contact form.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { contactMessages, contactSchema } from "../../../contract/contact.ts";
import { sendContactMessage } from "../../commands/contact.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";

export const contactRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const as = writer(deps);
  // A contact form is a spam target: a few messages per address per ten minutes is plenty.
  const perAddress = new Limit(deps.limitStore, "contact", 5, 10, by.address);

  app.post(
    "/contact",
    {
      schema: {
        tags: ["contact"],
        summary: "Send the Prism team a message",
        body: contactSchema,
        response: { 201: z.object({ id: z.number().int() }), ...errorResponses(400, 429) },
      },
      config: { rateLimit: { message: contactMessages.tooMany, limits: [perAddress] } },
    },
    async (request, reply) => {
      const { id, mailed } = await sendContactMessage(as(null), request.body);
      mailed.catch((error) =>
        request.log.error({ err: error, contactMessageId: id }, "contact mail failed"),
      );
      return reply.status(201).send({ id });
    },
  );
};
