// The connections under the requests: how long a client has to send one, how many one address
// may hold open, and closing without failing a request when a process among several stops.
import type { IncomingMessage } from "node:http";
import { Server, type Socket } from "node:net";
import proxyAddr from "@fastify/proxy-addr";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";
import { addressKey, OpenLimit } from "./rate-limit.ts";

export interface ConnectionLimits {
  /** Milliseconds a client has to send a request's headers, and its whole request. */
  headersMs?: number;
  requestMs?: number;
  /** How often Node looks for requests past those times. */
  checkEveryMs?: number;
  /** Connections one address may hold open at once; more are closed as they arrive. */
  perAddress?: number;
  /** While closing, how long a connection may go without a request before it is cut. */
  idleMs?: number;
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
  idleMs: 1_000,
} as const;

type Limits = Required<ConnectionLimits>;

/** The limits given, the defaults for the rest. */
export const connectionLimits = (given?: ConnectionLimits): Limits => ({
  ...CONNECTION_DEFAULTS,
  ...given,
});

/** Fastify's server options for these limits. */
export function connectionOptions(limits: Limits) {
  return {
    requestTimeout: limits.requestMs,
    http: { headersTimeout: limits.headersMs, connectionsCheckingInterval: limits.checkEveryMs },
    forceCloseConnections: "idle" as const,
    // While closing, a request on an open connection is still answered (with Connection: close),
    // not refused: another process may not have taken over yet.
    return503OnClosing: false,
  };
}

/** Caps each address's connections, and drains them all before the app closes. */
export function guardConnections(
  app: FastifyInstance,
  limits: Limits,
  trust: Config["trustProxy"],
) {
  drainBeforeClosing(app, limits.idleMs);
  capConnectionsPerAddress(app, limits.perAddress, trust);
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
  const trusted = trustedProxy(trust);
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

/** Whether the hop at `address` is a proxy whose X-Forwarded-* headers are believed. */
export function trustedProxy(
  trust: Config["trustProxy"],
): (address: string, hop: number) => boolean {
  if (typeof trust === "function") return trust;
  return trust ? proxyAddr.compile(trust.split(",").map((address) => address.trim())) : () => false;
}
