// Conditional GETs for what pages read and poll: a route with a cached read (cached-read.ts)
// answers an unchanged If-None-Match with 304, and an unchanged full answer from memory, before
// any session lookup or query runs; a member's own read, once the session is known, and so does a
// read that differs per viewer asked for with a session cookie. The door (door.ts) gives the same
// answers, the same way, before Fastify makes a request of one it has seen.
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onSendHookHandler,
  preHandlerHookHandler,
} from "fastify";
import fp from "fastify-plugin";
import { LRUCache } from "lru-cache";
import { HEARD_EVENT_HEADER } from "../../contract/events.ts";
import type { EventBus } from "../live/bus.ts";
import { cacheHits, cacheMisses } from "../metrics.ts";
import {
  compressed,
  type Encoding,
  encodingFor,
  type HeaderList,
  headerList,
  headersDirectly,
} from "../plugins/requests.ts";
import { hooksOf } from "../plugins/route-hooks.ts";
import { sessionToken } from "../plugins/session.ts";
import type { Looker } from "../plugins/visitor.ts";

/** What a route's cached read tells the hooks (made by `cachedRead`, see cached-read.ts). */
export interface RouteRead {
  /** Whom the answer is for (see `Askers` in cached-read.ts). */
  for: "everyone" | "viewer" | "member";
  /**
   * Whether the full answer is kept in the response cache, under its tag: JSON whose tag names it
   * whole (for an answer that differs per viewer, the tag signs their cookies too).
   */
  keep: boolean;
  /**
   * The entity tag of the current answer, computed without the database; none when memory does
   * not tell (the handler may then tag what it read), or when the address is not valid.
   * `validated`: Fastify has validated the address already.
   */
  etag(request: FastifyRequest, validated: boolean): string | undefined;
  /**
   * The tag from memory of an address this read has answered before, for someone not signed in
   * (see door.ts); none when memory does not tell. A member's own read has none.
   */
  etagAtDoor?: (url: string, looker: Looker) => string | undefined;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's cached read: spread into its options by `cachedRead`. */
    cachedRead?: RouteRead;
  }
  interface FastifyRequest {
    etag: string | undefined;
    /** Where this request's full answer goes in the response cache, when it may be kept. */
    answerKey: string | undefined;
  }
}

const JSON_TYPE = "application/json; charset=utf-8";

interface CachedAnswer {
  /** As bytes, so that sending it again encodes nothing. */
  body: Buffer;
  contentType: string;
  /** The body compressed, by encoding, once a browser has asked for it so. */
  encoded?: Partial<Record<Encoding, Buffer>>;
}

/**
 * Full answers by URL and entity tag. A tag names one version of the data (and, where answers
 * differ per viewer, the viewer), so an entry is never stale: a change moves the tag on and the
 * old entry simply ages out. Bounded by the bytes it holds.
 */
export class ResponseCache {
  private readonly answers: LRUCache<string, CachedAnswer>;

  constructor(bus: Pick<EventBus, "onResync">, maxBytes = 32 * 1024 * 1024) {
    this.answers = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (answer, key) =>
        answer.body.length +
        (answer.encoded?.br?.length ?? 0) +
        (answer.encoded?.gzip?.length ?? 0) +
        key.length,
    });
    // Tags start over after missed events (see versions.ts); the old answers are dead weight.
    bus.onResync(() => this.answers.clear());
  }

  /** The answer kept under `key`; a miss is counted unless `countMiss` is false. */
  get(key: string, countMiss = true): CachedAnswer | undefined {
    const answer = this.answers.get(key);
    if (answer) cacheHits.inc("answers");
    else if (countMiss) cacheMisses.inc("answers");
    return answer;
  }

  set(key: string, answer: CachedAnswer) {
    this.answers.set(key, answer);
  }

  /**
   * Sends a kept answer as this browser asks for it, after `headers`: compressed once per
   * encoding, and kept so (compressing it was most of the work of answering it again).
   */
  send(
    key: string,
    answer: CachedAnswer,
    asked: IncomingHttpHeaders,
    response: ServerResponse,
    headers: HeaderList,
  ) {
    const { body, encoding } = this.encoded(key, answer, asked);
    if (encoding) headers.push(...headerList(encodingHeaders(encoding)));
    headers.push("content-type", answer.contentType, "content-length", body.length);
    response.writeHead(200, headers).end(body);
  }

  /**
   * An answer's body as this browser asks for it, and its encoding: compressed once per encoding,
   * and kept so when the answer is kept under `key`.
   */
  encoded(
    key: string | undefined,
    answer: CachedAnswer,
    asked: IncomingHttpHeaders,
  ): { body: Buffer; encoding?: Encoding } {
    const encoding = encodingFor(asked, answer.body.length);
    if (encoding === undefined) return { body: answer.body };
    let body = answer.encoded?.[encoding];
    if (body === undefined) {
      body = compressed(answer.body, encoding);
      answer.encoded = { ...answer.encoded, [encoding]: body };
      // Set again, so that its size counts what it now holds.
      if (key !== undefined) this.answers.set(key, answer);
    }
    return { body, encoding };
  }
}

/** What says an answer is compressed, and that it differs by what the browser accepts. */
const encodingHeaders = (encoding: Encoding) => ({
  vary: "accept-encoding",
  "content-encoding": encoding,
});

/** Learns the addresses answered from memory, as memory is asked (the door, door.ts). */
interface Learner {
  learn(request: FastifyRequest, reply: FastifyReply, read: RouteRead): void;
}

/** A tagged answer is kept by the browser, which asks with the tag before using it again. */
const TAGGED_CACHING = "private, no-cache";

/** Whether the browser holds the version `etag` names already. */
function holds(asked: IncomingHttpHeaders, etag: string) {
  const given = asked["if-none-match"];
  // A browser sends the one tag it holds; a list of them is read tag by tag.
  return given === etag || given?.split(",").some((tag) => tag.trim() === etag) === true;
}

/** `headers` with the tag of the answer, which the browser keeps and asks with. */
const tagged = (headers: HeaderList, etag: string) => {
  headers.push("etag", etag, "cache-control", TAGGED_CACHING);
  return headers;
};

const sendUnchanged = (response: ServerResponse, headers: HeaderList, etag: string) =>
  response.writeHead(304, tagged(headers, etag)).end();

/** What memory answers a request with (see `knownAnswer`). */
export type KnownAnswer =
  | { status: 304; etag: string }
  | { status: 200; etag: string; key: string; answer: CachedAnswer };

/**
 * What memory answers a request for `url` with, when it holds the answer: 304 when the browser
 * holds `etag` already, else the answer kept under it when the read keeps them. The hooks below
 * answer this way, and so does the door (door.ts), which leaves a missing answer to them to count.
 */
export function knownAnswer(
  cache: ResponseCache,
  keep: boolean,
  etag: string,
  url: string,
  asked: IncomingHttpHeaders,
  countMiss = true,
): KnownAnswer | undefined {
  if (holds(asked, etag)) return { status: 304, etag };
  if (!keep) return undefined;
  const key = `${etag} ${url}`;
  const answer = cache.get(key, countMiss);
  return answer && { status: 200, etag, key, answer };
}

/** Sends what memory answers, after `headers`: those every answer carries. */
export function sendKnown(
  cache: ResponseCache,
  known: KnownAnswer,
  asked: IncomingHttpHeaders,
  response: ServerResponse,
  headers: HeaderList,
) {
  if (known.status === 304) return sendUnchanged(response, headers, known.etag);
  cache.send(known.key, known.answer, asked, response, tagged(headers, known.etag));
}

/**
 * Tags the answer, and answers 304 when the browser holds this version already: then the reply is
 * sent, and the route has nothing more to do.
 */
export function answeredUnchanged(request: FastifyRequest, reply: FastifyReply, etag: string) {
  request.etag = etag;
  if (holds(request.headers, etag)) {
    sendUnchanged(reply.raw, headerList(headersDirectly(request, reply)), etag);
    return true;
  }
  reply.header("etag", etag).header("cache-control", TAGGED_CACHING);
  return false;
}

/** Sends JSON that a read wrote already (from data it keeps) as it is. */
export function sendWritten(reply: FastifyReply, body: string) {
  return reply.type(JSON_TYPE).send(body);
}

/** Once the session is known, answers 304 for a read tagged only then (see `afterSession`). */
const answerUnchangedOnceKnown =
  (read: RouteRead): preHandlerHookHandler =>
  (request, reply, done) => {
    if (request.method !== "GET" || !afterSession(read, request)) return done();
    if (read.for === "member" && !request.user) return done();
    const etag = read.etag(request, true);
    if (etag !== undefined && answeredUnchanged(request, reply, etag)) return;
    done();
  };

/**
 * Keeps a full, shared answer in the response cache, and tags only what the tag names. On a route
 * whose answers are kept, it also compresses what the route wrote, as the browser asks: the
 * compression plugin is off there (see `cachedRead`), since a kept answer is compressed once per
 * encoding, and its hooks were a sixth of the work of answering from memory.
 */
const keepAnswer =
  (cache: ResponseCache, compresses: boolean): onSendHookHandler =>
  (request, reply, payload, done) => {
    // The tag names a version of the data, not of an error: a 404 for a member who may
    // register later must not be confirmed by a 304 afterwards.
    if (reply.statusCode !== 200 && reply.statusCode !== 304) {
      reply.removeHeader("etag");
    }
    // A full, shared answer, and never one that sets a cookie.
    const key =
      request.answerKey !== undefined && reply.statusCode === 200 && !reply.hasHeader("set-cookie")
        ? request.answerKey
        : undefined;
    // What the route wrote, not an answer from memory (compressed already when it is to be).
    const written = request.written;
    if ((key === undefined && !compresses) || written === undefined || payload !== written) {
      return done(null, payload);
    }
    const answer: CachedAnswer = {
      body: Buffer.from(written),
      contentType: String(reply.getHeader("content-type") ?? JSON_TYPE),
    };
    if (key !== undefined) cache.set(key, answer);
    if (!compresses) return done(null, payload);
    const { body, encoding } = cache.encoded(key, answer, request.headers);
    if (encoding) reply.headers(encodingHeaders(encoding));
    done(null, body);
  };

/**
 * Whether the read is tagged only once the session is known: a member's own answer, so that no
 * 304 confirms anything to someone who is not that member; and one that differs per viewer asked
 * with a session cookie, so that no 304 stands for a session that has ended.
 */
const afterSession = (read: RouteRead, request: FastifyRequest) =>
  read.for === "member" || (read.for === "viewer" && sessionToken(request) !== undefined);

export const conditionalPlugin = fp(
  async (
    app: FastifyInstance,
    opts: { cache: ResponseCache; bus: Pick<EventBus, "whenHeard">; door: Learner },
  ) => {
    const { cache, bus, door } = opts;

    app.decorateRequest("etag", undefined);
    app.decorateRequest("answerKey", undefined);
    // Callbacks, not promises: an unchanged poll is answered here, and a promise per hook was a
    // good share of its work. A hook that answers does not call `done`.
    const answerFromMemory = (
      read: RouteRead,
      request: FastifyRequest,
      reply: FastifyReply,
      done: HookHandlerDoneFunction,
    ) => {
      door.learn(request, reply, read);
      if (afterSession(read, request)) return done();
      // The tag is read before the data, so a change racing this request only makes it older.
      const etag = read.etag(request, false);
      if (etag === undefined) return done();
      request.etag = etag;
      const known = knownAnswer(cache, read.keep, etag, request.url, request.headers);
      if (known) {
        const headers = headerList(headersDirectly(request, reply));
        sendKnown(cache, known, request.headers, reply.raw, headers);
        return;
      }
      reply.header("etag", etag).header("cache-control", TAGGED_CACHING);
      if (read.keep) request.answerKey = `${etag} ${request.url}`;
      done();
    };
    app.addHook("onRequest", (request, reply, done) => {
      const read = request.routeOptions.config?.cachedRead;
      if (!read || request.method !== "GET") return done();
      // Memory answers once it knows of every change the page was told of.
      const heard = request.headers[HEARD_EVENT_HEADER];
      const waiting = typeof heard === "string" ? bus.whenHeard(heard) : undefined;
      if (!waiting) return answerFromMemory(read, request, reply, done);
      waiting.then(() => answerFromMemory(read, request, reply, done));
    });

    // The later hooks go on the routes that declare a cached read, and only there: no other
    // request passes through them, and each knows its read without looking it up.
    app.addHook("onRoute", (route) => {
      const read = route.config?.cachedRead;
      if (!read) return;
      route.preHandler = [...hooksOf(route.preHandler), answerUnchangedOnceKnown(read)];
      route.onSend = [...hooksOf(route.onSend), keepAnswer(cache, read.keep)];
    });
  },
);
