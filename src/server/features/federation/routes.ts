// HTTP for Prism on the fediverse, at the site's root where other servers look: WebFinger
// (/.well-known/webfinger), NodeInfo (/.well-known/nodeinfo, /nodeinfo/2.1), the actors, their
// inboxes, outboxes and followers and each prism as an Article (/ap/…), and a member's page
// (/{username}) asked for as ActivityPub, which answers their actor (or its Tombstone); a
// browser asking for the page is answered as before. Fedify answers on the web's Request and
// Response: each request is handed to it as one, and its answer sent back. Deliveries start with
// the app and stop with it.
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  followerParams,
  followerSchema,
  followersQuerySchema,
} from "../../../contract/federation.ts";
import { acceptFollower, removeFollower } from "../../commands/federation.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { requireUser } from "../../plugins/session.ts";
import type { Bounded } from "./bounded.ts";
import { admitActivity, type InboxLimits } from "./inbox-guard.ts";
import { identifierOf, type PrismFederation } from "./objects.ts";
import { presentFollower } from "./presenter.ts";
import { federatedMemberNamed, followersOfMember, goneActorNamed } from "./service.ts";
import type { Fediverse } from "./start.ts";

/** The largest activity an inbox reads, in bytes: a long prism fits many times over. */
export const INBOX_BODY_LIMIT = 256 * 1024;

/** The media types that ask for ActivityPub rather than a page. */
const ACTIVITY_PUB = /application\/(activity\+json|ld\+json)/i;

/** The request as the web's Request, at `path` (its own by default) on Prism's origin. */
function toRequest(request: FastifyRequest, origin: string, path = request.url): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const body = Buffer.isBuffer(request.body) ? new Uint8Array(request.body) : undefined;
  return new Request(new URL(path, origin), { method: request.method, headers, body });
}

/** Sends Fedify's answer as Fastify's. */
async function send(reply: FastifyReply, response: Response) {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    reply.header(name, value);
  });
  return reply.send(Buffer.from(await response.arrayBuffer()));
}

const notFound = () =>
  new Response(JSON.stringify({ error: "Not Found" }), {
    status: 404,
    headers: { "content-type": "application/json" },
  });

const notAcceptable = () => new Response("Not Acceptable", { status: 406 });

/**
 * Answers through Fedify, the request carrying what it read (objects.ts, `RequestData`): what
 * Fedify does not serve is a 404, what it cannot give as asked a 406.
 */
function answer(federation: PrismFederation, request: Request) {
  return federation.fetch(request, {
    contextData: { actors: new Map() },
    onNotFound: notFound,
    onNotAcceptable: notAcceptable,
  });
}

/**
 * The routes Fedify answers, with the bodies of their requests kept as sent (signatures); an
 * inbox's activity waits its turn (`turns`), then passes its domain's policy and budget.
 */
const fedifyRoutes: FastifyPluginAsyncZod<{
  federation: PrismFederation;
  origin: string;
  db: AppDeps["db"];
  limits: InboxLimits;
  turns: Bounded;
}> = async (app, { federation, origin, db, limits, turns }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    "*",
    { parseAs: "buffer", bodyLimit: INBOX_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  const handler = async (request: FastifyRequest, reply: FastifyReply) =>
    send(reply, await answer(federation, toRequest(request, origin)));
  const hide = { schema: { hide: true } };
  app.get("/.well-known/webfinger", hide, handler);
  app.get("/.well-known/nodeinfo", hide, handler);
  app.get("/nodeinfo/2.1", hide, handler);
  app.get("/ap/*", hide, handler);
  app.post("/ap/*", hide, async (request, reply) =>
    send(
      reply,
      await turns.run(() =>
        admitActivity(db, limits, request, () => answer(federation, toRequest(request, origin))),
      ),
    ),
  );
};

/** Fedify's routes, and a member's page asked for as ActivityPub. */
export const federationRoutes = fp<AppDeps & { fediverse: Fediverse }>(async (app, deps) => {
  const { federation, origin, inboxLimits, inboxTurns } = deps.fediverse;
  await app.register(fedifyRoutes, {
    federation,
    origin,
    db: deps.db,
    limits: inboxLimits,
    turns: inboxTurns,
  });

  // A member's page asked for as ActivityPub: their actor, when they federate, or its Tombstone
  // (410 Gone) when it was there and went, as at the actor's address and through WebFinger; a
  // prism's link (`?prism={id}`, what a reader pastes into their server's search) its Article.
  // A page that is no actor's is not found, as it is at /ap/actors/…: a server asking for
  // ActivityPub is never answered a page. Whether it answered; else the page is served as to
  // any browser.
  const answerAsActivityPub = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = new URL(request.url, origin);
    const match = /^\/([^/.]+)$/.exec(url.pathname);
    if (!match?.[1]) return false;
    const username = decodeURIComponent(match[1]);
    const member = await federatedMemberNamed(deps.db, username);
    const actorId = member ? member.id : await goneActorNamed(deps.db, username);
    if (actorId === null) {
      await send(reply, notFound());
      return true;
    }
    const prismId = url.searchParams.get("prism");
    const path =
      prismId && /^\d{1,9}$/.test(prismId)
        ? `/ap/prisms/${prismId}`
        : `/ap/actors/${identifierOf(actorId)}`;
    await send(reply, await answer(federation, toRequest(request, origin, path)));
    return true;
  };
  // A callback, not a promise: every request passes here, and only one asking for ActivityPub
  // has anything to wait for.
  app.addHook("onRequest", (request, reply, done) => {
    if (request.method !== "GET" || !ACTIVITY_PUB.test(request.headers.accept ?? "")) {
      return done();
    }
    answerAsActivityPub(request, reply).then((answered) => {
      if (!answered) done();
    }, done);
  });
});

/** The owner's followers: who they are, accepting one who waits, removing one (API, under /api). */
export const followersRoutes: FastifyPluginAsyncZod<AppDeps & { fediverse: Fediverse }> = async (
  app,
  deps,
) => {
  const as = writer(deps);
  const tags = ["federation"];
  app.get(
    "/user/followers",
    {
      schema: {
        tags,
        summary:
          "The signed-in member's followers on the fediverse: those waiting for them first, then first followers first; status=pending or accepted keeps those",
        querystring: followersQuerySchema,
        response: { 200: z.array(followerSchema), ...errorResponses(400, 401) },
      },
    },
    async (request) =>
      (await followersOfMember(deps.db, requireUser(request), request.query)).map(presentFollower),
  );
  app.post(
    "/user/followers/:id/accept",
    {
      schema: {
        tags,
        summary: "Accept a follow waiting for the signed-in member (their server is told)",
        params: followerParams,
        response: { 200: followerSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const write = { ...as(requireUser(request)), fediverse: deps.fediverse };
      return presentFollower(await acceptFollower(write, request.params.id));
    },
  );
  app.delete(
    "/user/followers/:id",
    {
      schema: {
        tags,
        summary:
          "Remove one of the signed-in member's followers, or decline a follow waiting for them (their server is told)",
        params: followerParams,
        response: { 204: z.null(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const write = { ...as(requireUser(request)), fediverse: deps.fediverse };
      await removeFollower(write, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
