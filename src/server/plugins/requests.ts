// How a request is read and answered: its size, its path, its id (the client's X-Request-Id when
// well-formed, told back on its answer), a bodiless write that still says application/json, the
// answer compressed, and one log line once it is answered.
import { randomUUID } from "node:crypto";
import type {
  IncomingHttpHeaders,
  OutgoingHttpHeader,
  OutgoingHttpHeaders,
  ServerResponse,
} from "node:http";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import { negotiate } from "@fastify/accept-negotiator";
import fastifyCompress from "@fastify/compress";
import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from "fastify";
import fp from "fastify-plugin";
import { limits } from "../../contract/limits.ts";

/**
 * One log line a request, once it is answered, naming the request as well as its status and time,
 * rather than one as it comes and one as it goes.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        "request errored",
      );
    } else {
      reply.log.info(
        { req: request, res: reply, responseTime: reply.elapsedTime },
        "request completed",
      );
    }
  }
}

/** Fastify's server options for reading requests. */
export const requestOptions = {
  bodyLimit: limits.bodyBytes,
  genReqId: (request) => {
    const given = request.headers["x-request-id"];
    return typeof given === "string" && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
  },
  requestIdHeader: false,
  logController: new OneLinePerRequest(),
  routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  // A path the router cannot read (a broken %-escape, an overlong parameter) still gets the
  // error shape.
  frameworkErrors: (error, _request, reply) =>
    (reply as FastifyReply)
      .code(error.code === "FST_ERR_MAX_PARAM_LENGTH" ? 414 : 400)
      .send({ message: "This address is not valid" }),
} satisfies FastifyServerOptions;

declare module "fastify" {
  interface FastifyRequest {
    /** The answer's text as the route wrote it, before any compression (none for a stream). */
    written: string | undefined;
  }
}

export const requestsPlugin = fp(async (app: FastifyInstance) => {
  app.removeContentTypeParser(["text/plain", "application/json"]);
  // A bodiless write that still says application/json (some clients always do) means "no body".
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (body === "") return done(null, undefined);
    parseJson(request, body as string, done);
  });
  // The hooks every answer passes through take a callback, not a promise: an unchanged poll's
  // whole work is a few of them, and each promise cost it a turn of the microtask queue.
  // The answer as written, before compression: the response cache keeps that (conditional.ts),
  // whatever encoding this one browser asked for.
  app.decorateRequest("written", undefined);
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    if (typeof payload === "string") request.written = payload;
    done(null, payload);
  });
  await app.register(fastifyCompress, {
    threshold: COMPRESSION.threshold,
    encodings: [...COMPRESSION.encodings],
    brotliOptions: COMPRESSION.brotli,
  });
});

/**
 * Answers past Fastify's send pipeline, straight to the socket: an answer from memory, which is
 * complete already and needs none of the onSend hooks, or a stream that stays open. The
 * headers earlier hooks set on the reply go with it, and so does the request id, which the
 * onSend hook above gives every other answer; the response's listeners still measure and log it
 * once it is sent. Returns the response with its head written.
 */
export function writeHeadDirectly(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  headers: OutgoingHttpHeaders,
): ServerResponse {
  return reply.raw.writeHead(status, Object.assign(headersDirectly(request, reply), headers));
}

/**
 * Takes the answer past Fastify's send pipeline (see `writeHeadDirectly`), and gives the headers
 * it carries so far: those earlier hooks set on the reply, and the request id.
 */
export function headersDirectly(request: FastifyRequest, reply: FastifyReply): OutgoingHttpHeaders {
  reply.hijack();
  const headers = reply.getHeaders() as OutgoingHttpHeaders;
  headers["x-request-id"] = request.id;
  return headers;
}

/**
 * An answer's headers as Node's `writeHead` also takes them: a list, each name followed by its
 * value, each name once. An answer from memory adds its own to those every answer carries, which
 * come from the reply's headers: an object that V8 keeps as a dictionary (Node makes it without a
 * prototype). Copying that object, adding to it and having Node read it back was a third of the
 * door's time per answer; a list is copied, added to and read at next to no cost.
 */
export type HeaderList = OutgoingHttpHeader[];

/** `headers` as a list (see `HeaderList`). */
export function headerList(headers: OutgoingHttpHeaders): HeaderList {
  const list: HeaderList = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) list.push(name, value);
  }
  return list;
}

/**
 * Pages and JSON above a small size go out compressed; a quick brotli level keeps the cost per
 * request low (static assets come compressed from the build instead).
 */
const COMPRESSION = {
  threshold: 1024,
  encodings: ["br", "gzip"],
  brotli: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
} as const;

export type Encoding = (typeof COMPRESSION.encodings)[number];

/**
 * The encoding an answer of `bytes` goes out in to this browser, as the compression plugin
 * chooses it; none when it goes as it is.
 */
export function encodingFor(asked: IncomingHttpHeaders, bytes: number): Encoding | undefined {
  const accepted = asked["accept-encoding"];
  if (bytes < COMPRESSION.threshold || accepted === undefined) return undefined;
  if (asked["x-no-compression"] !== undefined) return undefined;
  // As the plugin reads it: "*" and "x-gzip" stand for gzip.
  const chosen = negotiate(accepted.toLowerCase().replace(/\*|x-gzip/g, "gzip"), [
    ...COMPRESSION.encodings,
  ]);
  return chosen === "br" || chosen === "gzip" ? chosen : undefined;
}

/** An answer compressed as the compression plugin compresses it. */
export const compressed = (body: Buffer, encoding: Encoding): Buffer =>
  encoding === "br" ? brotliCompressSync(body, COMPRESSION.brotli) : gzipSync(body);
