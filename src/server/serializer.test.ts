import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { annotationSchema } from "../contract/annotations.ts";
import { serializerCompiler } from "./serializer.ts";

const schema = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  at: z.string(),
  status: z.enum(["pending", "approved"]),
  counts: z.record(z.string(), z.number()),
  note: z.string().optional(),
  kind: z.literal("ok"),
  item: z.union([
    z.object({ type: z.literal("prism"), title: z.string() }),
    z.object({ type: z.literal("member"), username: z.string(), since: z.string().nullable() }),
  ]),
  list: z.array(z.object({ n: z.number(), on: z.boolean() })),
});

/** A handler's result with something the schema does not list at every level. */
const result = {
  id: 7,
  name: null,
  at: "2026-11-22T20:00:00.000Z",
  status: "approved",
  counts: { a: 1, b: 2 },
  kind: "ok",
  item: { type: "member", username: "ada", since: null, email: "ada@example.com" },
  list: [{ n: 1, on: true, secret: "x" }],
  visitorHash: "f00d",
};

async function answer(body: unknown, responseSchema: z.ZodType) {
  const app = Fastify();
  app.setSerializerCompiler(serializerCompiler);
  app.get("/", { schema: { response: { 200: responseSchema } } }, async () => body);
  const response = await app.inject({ method: "GET", url: "/" });
  await app.close();
  return response;
}

describe("compiled response serializers", () => {
  it("write what the schema lists, as zod reads it, and nothing the handler added", async () => {
    const response = await answer(result, schema);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(JSON.stringify(schema.parse(result)));
    expect(response.body).not.toContain("visitorHash");
    expect(response.body).not.toContain("ada@example.com");
    expect(response.body).not.toContain("secret");
  });

  it("leave an annotation's author keys out of what a viewer is sent", async () => {
    const annotation = {
      id: 1,
      prismId: 2,
      userId: null,
      annotatorName: "Sam",
      authorName: "Sam (visitor)",
      annotationText: "Same here",
      selectedText: "Mornings",
      selectionStart: 0,
      selectionEnd: 8,
      status: "pending",
      orphaned: false,
      revision: 1,
      createdAt: "2026-11-22T20:00:00.000Z",
      reply: null,
      isOwn: true,
      canModerate: false,
      annotatorEmail: "sam@example.com",
      visitorHash: "f00d",
    };
    const response = await answer([annotation], z.array(annotationSchema));
    const { annotatorEmail: _email, visitorHash: _hash, ...shown } = annotation;
    expect(response.json()).toEqual([shown]);
  });

  it("answers a result missing what the schema requires with an error, not a partial body", async () => {
    const { kind: _kind, ...incomplete } = result;
    expect((await answer(incomplete, schema)).statusCode).toBe(500);
  });
});
