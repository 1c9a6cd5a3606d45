// The API's OpenAPI description, from the routes' zod schemas, and its docs page at /api/docs.
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

export const apiDocsPlugin = fp(async (app: FastifyInstance) => {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: "Prism API",
        description: "Profiles, prisms, hearts and annotations.",
        version: "1.0.0",
      },
    },
    transform: jsonSchemaTransform,
  });
  // The docs page loads only its own files, so the app's security headers hold there too.
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs" });
});
