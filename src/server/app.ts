// Assembles Prism's HTTP app: plugins, then feature routes, then the web app. Used by main and tests.
// Node's built-ins are kept before any library loads (see natives.ts).
import "./natives.ts";
import { fileURLToPath } from "node:url";
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyServerOptions } from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { conditionalPlugin, ResponseCache } from "./cache/conditional.ts";
import { Door } from "./cache/door.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { startDeps } from "./deps.ts";
import { apiFeatures } from "./features/api.ts";
import { googleRoutes } from "./features/auth/google.ts";
import { cardsRoutes } from "./features/cards/routes.ts";
import { startEmailNotifier } from "./features/email/notifier.ts";
import type { EventStreamLimits } from "./features/events/fan-out.ts";
import { eventStreamRoutes } from "./features/events/routes.ts";
import type { FederationSettings } from "./features/federation/federation.ts";
import { federationRoutes, followersRoutes } from "./features/federation/routes.ts";
import { startFederation } from "./features/federation/start.ts";
import { feedsRoutes } from "./features/feeds/routes.ts";
import { seoRoutes } from "./features/seo/routes.ts";
import { createPageStatus } from "./features/seo/service.ts";
import { siteRoutes } from "./features/site/routes.ts";
import { watchPool } from "./metrics.ts";
import { apiDocsPlugin } from "./plugins/api-docs.ts";
import {
  type ConnectionLimits,
  connectionLimits,
  connectionOptions,
  guardConnections,
} from "./plugins/connections.ts";
import { csrfPlugin } from "./plugins/csrf.ts";
import { errorsPlugin } from "./plugins/errors.ts";
import { metricsPlugin } from "./plugins/metrics.ts";
import { rateLimitPlugin } from "./plugins/rate-limit.ts";
import type { LimitStore } from "./plugins/rate-limit-store.ts";
import { requestOptions, requestsPlugin } from "./plugins/requests.ts";
import { securityHeadersPlugin } from "./plugins/security-headers.ts";
import { sessionCookieName, sessionPlugin } from "./plugins/session.ts";
import { startSessionCache } from "./plugins/session-cache.ts";
import { ensureVisitorId, visitorPlugin } from "./plugins/visitor.ts";
import { webPlugin } from "./plugins/web.ts";
import { Readiness } from "./readiness.ts";
import { serializerCompiler } from "./serializer.ts";
import { schedulePruning } from "./tasks/prune-expired.ts";

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
  /** Federation's settings other than production's (tests deliver to servers on this machine). */
  federation?: FederationSettings;
}

const defaultWebRoot = fileURLToPath(new URL("../../dist/web", import.meta.url));

export async function buildApp(options: BuildOptions) {
  const { config, database } = options;
  const connections = connectionLimits(options.connections);
  const door = new Door();
  const app = Fastify({
    serverFactory: door.serverFactory,
    logger: options.logger ?? false,
    // Loading the server renderer can take more than Fastify's default 10 s on a busy machine.
    pluginTimeout: 120_000,
    ...requestOptions,
    ...connectionOptions(connections),
    trustProxy: config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  // The first thing closing does (SIGTERM), before draining: a proxy polling /api/ready learns at
  // once to send this process no more.
  const readiness = new Readiness(database);
  app.addHook("preClose", async () => {
    readiness.stop();
    door.close();
  });
  guardConnections(app, connections, config.trustProxy);
  app.decorate("sessionCookie", sessionCookieName(config));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorsPlugin);
  await app.register(metricsPlugin, { token: config.metricsToken });
  app.addHook("onClose", watchPool(database));
  await app.register(requestsPlugin);
  await app.register(fastifyCookie);
  await app.register(securityHeadersPlugin, { https: config.appOrigin.startsWith("https:") });
  await app.register(apiDocsPlugin);

  const deps = await startDeps(app, options);
  const { bus, secret } = deps;
  app.addHook("onClose", schedulePruning(database.db, bus, app.log));
  startEmailNotifier(app, deps, options);
  await app.register(visitorPlugin, { db: database.db, config, secret });
  const answers = new ResponseCache(bus);
  door.open({ cache: answers, log: app.log, secret, config });
  const sessionCache = await startSessionCache(app, database, bus);
  const fediverse = startFederation(app, deps, options.federation);
  await app.register(
    async (api) => {
      await api.register(conditionalPlugin, { cache: answers, bus, door });
      await api.register(sessionPlugin, { db: database.db, cache: sessionCache });
      await api.register(csrfPlugin, { origin: config.appOrigin });
      await api.register(rateLimitPlugin);
      await api.register(siteRoutes, { ...deps, readiness });
      for (const routes of apiFeatures) await api.register(routes, deps);
      await api.register(followersRoutes, { ...deps, fediverse });
      await api.register(eventStreamRoutes, { ...deps, ...options.eventStreams });
    },
    { prefix: "/api" },
  );

  // Share cards, feeds and embeds, at the site's root as link previews, feed readers and other
  // sites expect, answered conditionally as the API's reads are.
  await app.register(async (outside) => {
    await outside.register(conditionalPlugin, { cache: answers, bus, door });
    await outside.register(cardsRoutes, deps);
    await outside.register(feedsRoutes, deps);
  });
  await app.register(federationRoutes, { ...deps, fediverse });
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
