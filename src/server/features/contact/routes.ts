// HTTP for the contact form.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { contactMessages, contactSchema } from "../../../contract/contact.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { receiveContactMessage } from "./service.ts";

export const contactRoutes: FastifyPluginAsyncZod<AppDeps> = async (
  app,
  { db, mailer, config, limitStore },
) => {
  // A contact form is a spam target: a few messages per address per ten minutes is plenty.
  const perAddress = new Limit(limitStore, "contact", 5, 10, by.address);

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
      const { id, mailed } = await receiveContactMessage(
        db,
        mailer,
        config.contactTo,
        request.body,
      );
      mailed.catch((error) =>
        request.log.error({ err: error, contactMessageId: id }, "contact mail failed"),
      );
      return reply.status(201).send({ id });
    },
  );
};
