// Conditional GETs for what pages read and poll: a route that declares `config.etag` answers an
// unchanged If-None-Match with 304, and an unchanged full answer from memory, before any session
// lookup or query runs; one that declares `config.memberEtag`, once the session is known, and so
// does a `viewerAnswer` asked for with a session cookie.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { LRUCache } from "lru-cache";
import type { UserRow } from "../db/schema.ts";
import type { EventBus } from "../live/bus.ts";
import type { Answer, WrittenAnswer } from "../live/memo.ts";
import { cacheHits, cacheMisses } from "../metrics.ts";
import { sessionToken } from "./session.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The entity tag of the current answer, computed without the database; none when memory does
     * not tell (the handler may then tag what it read).
     */
    etag?: (request: FastifyRequest, reply: FastifyReply) => string | undefined;
    /**
     * The entity tag of the signed-in member's own answer, computed without the database: checked
     * after the session, so that no 304 confirms anything to someone who is not that member.
     */
    memberEtag?: (user: UserRow) => string;
    /** The answer is the same for everyone who asks (no viewer in it): keep it in memory. */
    sharedAnswer?: boolean;
    /**
     * The answer differs per viewer, and `etag` names them by their cookies (`viewerCookies`): a
     * request with a session cookie is checked once its session is known, so that no 304 stands
     * for a session that has ended.
     */
    viewerAnswer?: boolean;
  }
  interface FastifyRequest {
    etag: string | undefined;
    /** Where this request's full answer goes in the response cache, when it may be kept. */
    answerKey: string | undefined;
  }
}

const JSON_TYPE = "application/json; charset=utf-8";

interface CachedAnswer {
  body: string;
  contentType: string;
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
      sizeCalculation: (answer, key) => answer.body.length + key.length,
    });
    // Tags start over after missed events (see live/versions.ts); the old answers are dead weight.
    bus.onResync(() => this.answers.clear());
  }

  get(key: string): CachedAnswer | undefined {
    const answer = this.answers.get(key);
    (answer ? cacheHits : cacheMisses).inc({ cache: "answers" });
    return answer;
  }

  set(key: string, answer: CachedAnswer) {
    this.answers.set(key, answer);
  }
}

/** Tags the answer: the browser keeps it, and asks with the tag before using it again. */
function tagAnswer(reply: FastifyReply, etag: string) {
  reply.header("etag", etag).header("cache-control", "private, no-cache");
}

/**
 * Tags the answer, and answers 304 when the browser holds this version already: then the reply is
 * sent, and the route has nothing more to do.
 */
function answeredUnchanged(request: FastifyRequest, reply: FastifyReply, etag: string) {
  request.etag = etag;
  tagAnswer(reply, etag);
  const given = request.headers["if-none-match"];
  if (!given?.split(",").some((tag) => tag.trim() === etag)) return false;
  reply.status(304).send();
  return true;
}

/** Sends JSON that is written already (an answer kept in memory) as it is. */
function sendWritten(reply: FastifyReply, body: string, contentType = JSON_TYPE) {
  return reply.type(contentType).send(body);
}

/**
 * Replies with a cached read's answer: tagged with the read's tag when the hook could not tag
 * the request before it (304 when the browser holds that version); JSON written already is sent
 * as it is.
 */
export function sendAnswer<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: Answer<T> | WrittenAnswer,
) {
  const etag = request.etag === undefined && answer.etag?.();
  if (etag && answeredUnchanged(request, reply, etag)) return reply;
  return "written" in answer ? sendWritten(reply, answer.written) : answer.value;
}

export const conditionalPlugin = fp(
  async (app: FastifyInstance, opts: { cache: ResponseCache }) => {
    const { cache } = opts;

    app.decorateRequest("etag", undefined);
    app.decorateRequest("answerKey", undefined);
    // Callbacks, not promises: an unchanged poll is answered here, and a promise per hook was a
    // good share of its work. A hook that answers does not call `done`.
    app.addHook("onRequest", (request, reply, done) => {
      const { etag: etagOf, sharedAnswer, viewerAnswer } = request.routeOptions.config ?? {};
      if (!etagOf || request.method !== "GET") return done();
      if (viewerAnswer && sessionToken(request)) return done();
      // The tag is read before the data, so a change racing this request only makes it older.
      const etag = etagOf(request, reply);
      if (etag === undefined) return done();
      if (answeredUnchanged(request, reply, etag)) return;
      if (!sharedAnswer) return done();
      const key = `${request.etag} ${request.url}`;
      const cached = cache.get(key);
      if (cached) {
        sendWritten(reply, cached.body, cached.contentType);
        return;
      }
      request.answerKey = key;
      done();
    });

    app.addHook("preHandler", async (request, reply) => {
      const { etag: etagOf, memberEtag, viewerAnswer } = request.routeOptions.config ?? {};
      if (request.method !== "GET") return;
      if (etagOf && viewerAnswer && sessionToken(request)) {
        const etag = etagOf(request, reply);
        if (etag !== undefined && answeredUnchanged(request, reply, etag)) return reply;
      }
      if (!memberEtag || !request.user) return;
      if (answeredUnchanged(request, reply, memberEtag(request.user))) return reply;
    });

    app.addHook("onSend", (request, reply, payload, done) => {
      // The tag names a version of the data, not of an error: a 404 for a member who may
      // register later must not be confirmed by a 304 afterwards.
      if (reply.statusCode !== 200 && reply.statusCode !== 304) {
        reply.removeHeader("etag");
      }
      // A full, shared answer, and never one that sets a cookie.
      if (
        request.answerKey !== undefined &&
        reply.statusCode === 200 &&
        typeof payload === "string" &&
        !reply.hasHeader("set-cookie")
      ) {
        cache.set(request.answerKey, {
          body: payload,
          contentType: String(reply.getHeader("content-type") ?? JSON_TYPE),
        });
      }
      done(null, payload);
    });
  },
);
