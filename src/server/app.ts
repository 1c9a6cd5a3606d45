// Assembles Prism's HTTP app: plugins, then feature routes, then the web app. Used by main and tests.
import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Server, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { constants as zlib } from "node:zlib";
import fastifyCompress from "@fastify/compress";
import fastifyCookie from "@fastify/cookie";
import proxyAddr from "@fastify/proxy-addr";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from "fastify";
import {
  type FastifyPluginAsyncZod,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import helmet from "helmet";
import { z } from "zod";
import { limits } from "../contract/limits.ts";
import { siteServicesSchema } from "../contract/site.ts";
import { conditionalPlugin, ResponseCache } from "./cache/conditional.ts";
import { Versions } from "./cache/versions.ts";
import { schedulePruning } from "./commands/prune-expired.ts";
import type { Config } from "./config.ts";
import type { Database, Db } from "./db/client.ts";
import { annotationsRoutes } from "./features/annotations/routes.ts";
import { googleRoutes } from "./features/auth/google.ts";
import { authRoutes } from "./features/auth/routes.ts";
import { cardsRoutes } from "./features/cards/routes.ts";
import { catalystRoutes } from "./features/catalyst/routes.ts";
import { contactRoutes } from "./features/contact/routes.ts";
import { diagnosticsRoutes } from "./features/diagnostics/routes.ts";
import { startEmailNotifier } from "./features/email/notifier.ts";
import { emailRoutes } from "./features/email/routes.ts";
import { exploreRoutes } from "./features/explore/routes.ts";
import { exportRoutes } from "./features/export/routes.ts";
import { heartsRoutes } from "./features/hearts/routes.ts";
import { notificationsRoutes } from "./features/notifications/routes.ts";
import { passwordResetRoutes } from "./features/password-reset/routes.ts";
import { prismsRoutes } from "./features/prisms/routes.ts";
import { resonanceRoutes } from "./features/resonance/routes.ts";
import { seoRoutes } from "./features/seo/routes.ts";
import { createPageStatus } from "./features/seo/service.ts";
import { settingsRoutes } from "./features/settings/routes.ts";
import { usersRoutes } from "./features/users/routes.ts";
import { EventBus } from "./live/bus.ts";
import { type EventStreamLimits, eventStreamRoutes } from "./live/stream.ts";
import { createMailer, MAIL_RETRY_WAITS_MS, type Mailer } from "./mail/mailer.ts";
import { watchPool } from "./metrics.ts";
import { csrfPlugin } from "./plugins/csrf.ts";
import { errorsPlugin } from "./plugins/errors.ts";
import { metricsPlugin } from "./plugins/metrics.ts";
import { addressKey, OpenLimit, rateLimitPlugin } from "./plugins/rate-limit.ts";
import { type LimitStore, limitStoreFor } from "./plugins/rate-limit-store.ts";
import { sessionCookieName, sessionPlugin } from "./plugins/session.ts";
import { SessionCache } from "./plugins/session-cache.ts";
import { ensureVisitorId, visitorPlugin } from "./plugins/visitor.ts";
import { webPlugin } from "./plugins/web.ts";
import { Readiness } from "./readiness.ts";
import { serializerCompiler } from "./serializer.ts";

export interface AppDeps {
  config: Config;
  db: Db;
  database: Database;
  bus: EventBus;
  versions: Versions;
  mailer: Mailer;
  /** HMAC key for visitor hashes and entity tags. */
  secret: string;
  /** Where the rate limits keep their counters. */
  limitStore: LimitStore;
}

interface BuildOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions["logger"];
  /** Folder of the built web app; defaults to dist/web. */
  webRoot?: string;
  /** Caps of open event streams other than the defaults (the bench opens thousands). */
  eventStreams?: EventStreamLimits;
  /** Bounds on receiving requests and on one address's connections other than the defaults. */
  connections?: ConnectionLimits;
  /** Where rate limits count other than the engine's store (the bench compares the two). */
  limitStore?: LimitStore;
  /** The clock e-mail digests are due by, other than the system's (tests move it on). */
  now?: () => Date;
  /** The waits before each new try of a refused e-mail notification, other than the defaults. */
  mailRetryWaitsMs?: readonly number[];
}

export interface ConnectionLimits {
  /** Milliseconds a client has to send a request's headers, and its whole request. */
  headersMs?: number;
  requestMs?: number;
  /** How often Node looks for requests past those times. */
  checkEveryMs?: number;
  /** Connections one address may hold open at once; more are closed as they arrive. */
  perAddress?: number;
}

// A request arrives within 50 s, its headers within 30 s; Node looks every 10 s, so a client
// that trickles bytes is cut off (408) within a minute. 256 connections per address leave room
// for 50 event streams and a few browsers' six connections behind one address (an office, a
// school) while one client cannot take the process's file descriptors.
const CONNECTION_DEFAULTS = {
  headersMs: 30_000,
  requestMs: 50_000,
  checkEveryMs: 10_000,
  perAddress: 256,
  /** While closing, how long a connection may go without a request before it is cut. */
  idleMs: 1_000,
} as const;

const defaultWebRoot = fileURLToPath(new URL("../../dist/web", import.meta.url));

export async function buildApp(options: BuildOptions) {
  const { config, database } = options;
  const connections = { ...CONNECTION_DEFAULTS, ...options.connections };
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: limits.bodyBytes,
    // Loading the server renderer can take more than Fastify's default 10 s on a busy machine.
    pluginTimeout: 120_000,
    requestTimeout: connections.requestMs,
    http: {
      headersTimeout: connections.headersMs,
      connectionsCheckingInterval: connections.checkEveryMs,
    },
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    forceCloseConnections: "idle",
    // While closing, a request on an open connection is still answered (with Connection: close),
    // not refused: another process may not have taken over yet.
    return503OnClosing: false,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // A path the router cannot read (a broken %-escape, an overlong parameter) still gets the
    // error shape.
    frameworkErrors: (error, _request, reply) =>
      (reply as FastifyReply)
        .code(error.code === "FST_ERR_MAX_PARAM_LENGTH" ? 414 : 400)
        .send({ message: "This address is not valid" }),
  }).withTypeProvider<ZodTypeProvider>();

  // The first thing closing does (SIGTERM), before draining: a proxy polling /api/ready learns at
  // once to send this process no more.
  const readiness = new Readiness(database);
  app.addHook("preClose", async () => readiness.stop());
  drainBeforeClosing(app, connections.idleMs);
  capConnectionsPerAddress(app, connections.perAddress, config.trustProxy);
  app.decorate("sessionCookie", sessionCookieName(config));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.removeContentTypeParser(["text/plain", "application/json"]);
  // A bodiless write that still says application/json (some clients always do) means "no body".
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (body === "") return done(null, undefined);
    parseJson(request, body as string, done);
  });
  // The hooks every answer passes through take a callback, not a promise: an unchanged poll's
  // whole work is a few of them, and each promise cost it a turn of the microtask queue.
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    done(null, payload);
  });

  await app.register(errorsPlugin);
  await app.register(metricsPlugin, { token: config.metricsToken });
  app.addHook("onClose", watchPool(database));
  // Pages and JSON above a small size go out compressed; a quick brotli level keeps the cost per
  // request low (static assets come compressed from the build instead).
  await app.register(fastifyCompress, {
    threshold: 1024,
    encodings: ["br", "gzip"],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(fastifyCookie);
  // Security headers on every answer: those helmet sets, found once and set as they are (Fastify's
  // helmet plugin makes a middleware per request, which parsed the policy again each time: a fifth
  // of a cached read's CPU; helmet's own middleware still ran a chain of eleven per request).
  const securityHeaders = headersSetBy(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", "data:"],
          fontSrc: ["'self'", "data:"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      crossOriginEmbedderPolicy: false,
      // Browsers heed HSTS only over https, and it would pin a plain-http origin's name to https.
      strictTransportSecurity: config.appOrigin.startsWith("https:"),
    }),
  );
  app.addHook("onRequest", (_request, reply, done) => {
    for (const [name, value] of securityHeaders) reply.raw.setHeader(name, value);
    done();
  });
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
  // The docs page loads only its own files, so the app's policy above holds there too.
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs" });

  const bus = new EventBus(database);
  await bus.start();
  app.addHook("onClose", () => bus.stop());
  const stopPruning = schedulePruning(database.db, app.log);
  app.addHook("onClose", stopPruning);
  const secret = config.appSecret ?? randomBytes(32).toString("hex");
  const deps: AppDeps = {
    config,
    db: database.db,
    database,
    bus,
    versions: new Versions(bus, secret),
    mailer: createMailer(config, app.log),
    secret,
    limitStore: options.limitStore ?? limitStoreFor(database),
  };
  const emailNotifier = startEmailNotifier({
    ...deps,
    origin: config.appOrigin,
    log: app.log,
    now: options.now ?? (() => new Date()),
    retryWaitsMs: options.mailRetryWaitsMs ?? MAIL_RETRY_WAITS_MS,
  });
  app.decorate("emailNotifier", emailNotifier);
  app.addHook("onClose", () => emailNotifier.stop());
  await app.register(visitorPlugin, { db: database.db, config, secret });
  const answers = new ResponseCache(bus);
  const sessionCache = new SessionCache(database, bus);
  await sessionCache.start();
  app.decorate("sessionCache", sessionCache);
  app.addHook("onClose", () => sessionCache.stop());
  await app.register(
    async (api) => {
      await api.register(conditionalPlugin, { cache: answers });
      await api.register(sessionPlugin, { db: database.db, cache: sessionCache });
      await api.register(csrfPlugin, { origin: config.appOrigin });
      await api.register(rateLimitPlugin);
      api.withTypeProvider<ZodTypeProvider>().get(
        "/health",
        {
          schema: {
            tags: ["health"],
            summary: "Liveness and database reachability",
            response: { 200: z.object({ status: z.literal("ok") }) },
          },
        },
        async () => {
          await database.ping();
          return { status: "ok" as const };
        },
      );
      api.withTypeProvider<ZodTypeProvider>().get(
        "/ready",
        {
          schema: {
            tags: ["health"],
            summary:
              "Whether to send this process traffic: the database answers and is migrated, and " +
              "the event listener is connected (checked at most once a second), and it is not " +
              "shutting down",
            response: {
              200: z.object({ ready: z.literal(true) }),
              503: z.object({ ready: z.literal(false), message: z.string() }),
            },
          },
        },
        async (_request, reply) => {
          const state = await readiness.current();
          reply.header("cache-control", "no-store");
          return state.ready ? state : reply.status(503).send(state);
        },
      );
      // What pages need to know to hide or explain what this server cannot do. It changes only
      // with a restart, and is the same for everyone.
      const services = {
        googleSignIn: config.google !== undefined,
        outgoingMail: deps.mailer.canSend,
      };
      api.withTypeProvider<ZodTypeProvider>().get(
        "/site",
        {
          schema: {
            tags: ["site"],
            summary: "Which services this server has: Google sign-in, outgoing mail",
            response: { 200: siteServicesSchema },
          },
        },
        async (_request, reply) =>
          reply.header("cache-control", "public, max-age=300").send(services),
      );
      const features: FastifyPluginAsyncZod<AppDeps>[] = [
        authRoutes,
        usersRoutes,
        settingsRoutes,
        exportRoutes,
        prismsRoutes,
        heartsRoutes,
        notificationsRoutes,
        annotationsRoutes,
        contactRoutes,
        exploreRoutes,
        diagnosticsRoutes,
        passwordResetRoutes,
        catalystRoutes,
        emailRoutes,
        resonanceRoutes,
      ];
      for (const routes of features) await api.register(routes, deps);
      await api.register(eventStreamRoutes, { ...deps, ...options.eventStreams });
    },
    { prefix: "/api" },
  );

  // Share cards, at the site's root as link previews expect, answered conditionally as the API's
  // reads are.
  await app.register(async (cards) => {
    await cards.register(conditionalPlugin, { cache: answers });
    await cards.register(cardsRoutes, deps);
  });
  await app.register(googleRoutes, deps);
  await app.register(seoRoutes, deps);
  await app.register(webPlugin, {
    root: options.webRoot ?? defaultWebRoot,
    sourceMaps: !config.production,
    origin: config.appOrigin,
    pageStatus: createPageStatus(deps.db),
    stamp: () => deps.versions.stamp(),
    onPage: (request, reply) => ensureVisitorId(request, reply, config, secret),
  });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * The headers a helmet middleware sets. They depend on its options alone, never on the request,
 * so they are read once from a response that records them.
 */
function headersSetBy(middleware: ReturnType<typeof helmet>): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, value]),
    // Helmet removes X-Powered-By, which neither Node nor Fastify sets.
    removeHeader: () => {},
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * Closing without failing a request, for a process among several (a rolling restart). The server
 * stops accepting at once, so new connections go to the other processes, and every answer from
 * then on says Connection: close, so a busy client moves over after its next answer. What is left
 * is cut only once no request has come for `idleMs`: cutting a connection that a client is reusing
 * would fail its request. That includes connections that never sent a request (a browser's
 * speculative ones, which Node counts as busy and would wait for). The wait is bounded.
 */
function drainBeforeClosing(app: FastifyInstance, idleMs: number) {
  const unused = new Set<Socket>();
  let lastRequestAt = 0;
  app.server.on("connection", (socket: Socket) => {
    unused.add(socket);
    socket.once("close", () => unused.delete(socket));
  });
  app.server.on("request", (request: IncomingMessage) => {
    unused.delete(request.socket);
    lastRequestAt = Date.now();
  });
  const open = () =>
    new Promise<number>((resolve) => app.server.getConnections((_error, count) => resolve(count)));
  app.addHook("preClose", async () => {
    if (app.server.listening) {
      // net's close, not http's: that one also cuts idle connections, which comes last.
      Server.prototype.close.call(app.server);
      const deadline = Date.now() + 8 * idleMs;
      while (Date.now() < deadline && Date.now() - lastRequestAt < idleMs && (await open()) > 0) {
        await new Promise((resolve) => setTimeout(resolve, idleMs / 10));
      }
    }
    for (const socket of unused) socket.destroy();
  });
}

/**
 * One client address holds at most `max` connections; one more is closed as it arrives, so that
 * no client takes every file descriptor of the process. The trusted proxy (TRUST_PROXY) carries
 * many clients on its connections: they are not counted by its address.
 */
function capConnectionsPerAddress(app: FastifyInstance, max: number, trust: Config["trustProxy"]) {
  const trusted =
    typeof trust === "function"
      ? trust
      : trust
        ? proxyAddr.compile(trust.split(",").map((address) => address.trim()))
        : () => false;
  const open = new OpenLimit(max);
  app.server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || trusted(address, 0)) return;
    const key = addressKey(address);
    if (!open.take(key)) {
      socket.destroy();
      return;
    }
    socket.once("close", () => open.release(key));
  });
}
