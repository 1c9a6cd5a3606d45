// How response bodies are written: each route's zod response schema becomes JSON Schema once, when
// the route is registered, and fast-json-stringify compiles it into a function that writes just
// the properties the schema lists, in its order. Nothing walks the schema per request.

import fastJson from "fast-json-stringify";
import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import { z } from "zod";

/** The function that writes values of `schema` as JSON, as a route answering with it does. */
export function jsonWriter<T>(schema: z.ZodType<T>): (value: T) => string {
  return fastJson(
    z.toJSONSchema(schema, {
      target: "draft-7",
      io: "output",
      // A property the schema does not list is left out when writing anyway. Closing objects
      // would make fast-json-stringify reject, rather than trim, a union member with one more.
      override: ({ jsonSchema }) => {
        if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
      },
    }) as Parameters<typeof fastJson>[0],
  );
}

export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) =>
  jsonWriter(schema);
