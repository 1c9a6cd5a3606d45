// The server's door: a read that memory answers is answered here, as it arrives, before Fastify
// makes a request of it. Fastify answers an address from memory first (conditional.ts), and the
// door learns from it the address's read and the headers its answers carry; from then on, a
// request for it from someone who is not signed in is answered at the door, 304 or the kept
// answer, as the hooks would have answered it. Anything else (a session, a browser id the server
// did not sign, a wait for a change, an answer memory does not hold) goes on to Fastify. Making a
// Fastify request, routing it and running its hooks was a third of an answer from memory's work.
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerOptions,
  type ServerResponse,
} from "node:http";
import proxyAddr from "@fastify/proxy-addr";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { HEARD_EVENT_HEADER } from "../../contract/events.ts";
import type { Config } from "../config.ts";
import { cacheHits, requestDuration } from "../metrics.ts";
import { trustedProxy } from "../plugins/connections.ts";
import { type HeaderList, headerList, requestOptions } from "../plugins/requests.ts";
import { sessionCookieName } from "../plugins/session.ts";
import { type Looker, lookerOf } from "../plugins/visitor.ts";
import { knownAnswer, type ResponseCache, type RouteRead, sendKnown } from "./conditional.ts";

/** What the door knows of an address, from Fastify's answer to it. */
interface Known {
  /** The address's tag from memory for someone not signed in (see `RouteRead`). */
  etag: (url: string, looker: Looker) => string | undefined;
  keep: boolean;
  /** The headers the hooks before the answer set (the security headers), as they set them. */
  headers: HeaderList;
  /** The route's pattern and config, by which its answers are measured. */
  route: string;
  config: object;
}

/** What the door answers with, once the app is built. */
interface DoorSettings {
  cache: ResponseCache;
  log: FastifyBaseLogger;
  secret: string;
  sessionCookie: string;
  /** Which proxies' X-Forwarded-* headers are believed, for the log (Fastify's `trustProxy`). */
  trusted: (address: string, hop: number) => boolean;
}

/** What Fastify's options say of the server it would make. */
interface ServerSettings {
  http?: ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** The log levels at which every answer is logged (see requests.ts). */
const LOGS_ANSWERS = new Set(["trace", "debug", "info"]);

export class Door {
  /** Addresses by their text as they come: Fastify answers each different one first. */
  private readonly known = new LRUCache<string, Known>({ max: 10_000 });
  /** None until the app is built, and again once it closes. */
  private settings: DoorSettings | undefined;

  /** Fastify's HTTP server, with the door before its handler (Fastify's `serverFactory`). */
  readonly serverFactory = (handler: Handler, options: ServerSettings) => {
    const server = createServer(options.http ?? {}, (request, response) => {
      if (!this.answered(request, response)) handler(request, response);
    });
    // As Fastify sets up a server of its own.
    server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
    server.requestTimeout = options.requestTimeout ?? 0;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };

  /** Starts answering, once the app is built. */
  open(opened: { cache: ResponseCache; log: FastifyBaseLogger; secret: string; config: Config }) {
    const { cache, log, secret, config } = opened;
    const trusted = trustedProxy(config.trustProxy);
    this.settings = { cache, log, secret, sessionCookie: sessionCookieName(config), trusted };
  }

  /** Stops answering: while the app closes, Fastify answers everything (with Connection: close). */
  close() {
    this.settings = undefined;
  }

  /** Learns an address that Fastify answers with a cached read, as memory is asked for it. */
  learn(request: FastifyRequest, reply: FastifyReply, read: RouteRead) {
    const etag = read.etagAtDoor;
    if (etag === undefined || this.known.has(request.url)) return;
    // An answer that sets a cookie (a browser id signed anew) is the plugins' to give.
    if (reply.hasHeader("set-cookie")) return;
    const { url, config } = request.routeOptions;
    this.known.set(request.url, {
      etag,
      keep: read.keep,
      headers: headerList(reply.getHeaders() as OutgoingHttpHeaders),
      route: url ?? "unmatched",
      config,
    });
  }

  /** Answers the request from memory when it can; false leaves it to Fastify. */
  private answered(request: IncomingMessage, response: ServerResponse): boolean {
    const started = performance.now();
    const { settings } = this;
    const { url, headers: asked } = request;
    if (settings === undefined || url === undefined || request.method !== "GET") return false;
    const known = this.known.get(url);
    if (known === undefined || asked[HEARD_EVENT_HEADER] !== undefined) return false;
    const looker = lookerOf(asked.cookie, settings.sessionCookie, settings.secret);
    const etag = looker && known.etag(url, looker);
    if (etag === undefined) return false;
    const answer = knownAnswer(settings.cache, known.keep, etag, url, asked, false);
    if (answer === undefined) return false;
    const id = requestOptions.genReqId(request);
    sendKnown(settings.cache, answer, asked, response, [...known.headers, "x-request-id", id]);
    cacheHits.inc("door");
    const { status } = answer;
    const labels = { method: "GET", route: known.route, status_code: status };
    const ms = performance.now() - started;
    requestDuration.observe(known.config, labels, ms / 1000);
    if (LOGS_ANSWERS.has(settings.log.level)) {
      const req = asLogged(request, settings.trusted);
      settings.log.info(
        { reqId: id, req, res: { statusCode: status }, responseTime: ms },
        "request completed",
      );
    }
    return true;
  }
}

/** What the log's request serializer (log.ts) reads of a request, as Fastify's request tells it. */
function asLogged(request: IncomingMessage, trusted: DoorSettings["trusted"]) {
  const { socket, headers } = request;
  const forwardedHost = headers["x-forwarded-host"];
  const viaProxy = socket.remoteAddress !== undefined && trusted(socket.remoteAddress, 0);
  const addresses = proxyAddr.all(request, trusted);
  return {
    method: request.method,
    url: request.url,
    host: forwardedHost && viaProxy ? String(forwardedHost).split(",").pop()?.trim() : headers.host,
    ip: addresses[addresses.length - 1],
  };
}
