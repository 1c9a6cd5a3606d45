// Rate limits: the one place Prism counts what anyone may do. A route lists its limits in
// `config.rateLimit`; before its handler runs (after validation and the session, before any
// work), every limit that applies spends one point, and the first that is used up answers 429
// with Retry-After and the route's message. Streams use the same 429 for how many may be open at
// once. Counters live in the app's store (rate-limit-store.ts): PostgreSQL's, shared by every
// process, or PGlite's process's memory; every number is in the README.
import { isIPv6 } from "node:net";
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from "fastify";
import fp from "fastify-plugin";
import { HttpError } from "../http-error.ts";
import type { Counters, LimitStore } from "./rate-limit-store.ts";
import { hooksOf } from "./route-hooks.ts";
import { VISITOR_COOKIE } from "./visitor.ts";

/** A 429: the request was refused for now; `retryAfter` seconds is when to try again. */
export class RateLimited extends HttpError {
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(429, message);
  }
}

/**
 * `points` requests per key every `minutes`, for the requests that `key` gives a key; its
 * counters are kept in `store` under `name`, which no other limit of the app has.
 */
export class Limit {
  private readonly counters: Counters;

  constructor(
    store: LimitStore,
    name: string,
    points: number,
    minutes: number,
    /**
     * The counter a request spends from, or null when the limit does not apply to it; without
     * it, the route names the counter itself (`spendFrom`).
     */
    readonly key: (request: FastifyRequest) => string | null = () => null,
  ) {
    this.counters = store.counters(name, points, minutes * 60);
  }

  /** Spends a point for the request; the seconds to wait when none was left, else 0. */
  spend(request: FastifyRequest): Promise<number> {
    return this.spendFrom(this.key(request));
  }

  /** Spends a point from the counter `key` (a key the route found itself, e.g. an account). */
  async spendFrom(key: string | null): Promise<number> {
    return key === null ? 0 : this.counters.spend(key);
  }

  /** Gives the request's point back (a sign-in that succeeded was no guess). */
  async refund(request: FastifyRequest): Promise<void> {
    const key = this.key(request);
    if (key !== null) await this.counters.refund(key);
  }

  /** Gives a point back to the counter `key` (what `spendFrom` spent for a request not taken). */
  async refundFrom(key: string): Promise<void> {
    await this.counters.refund(key);
  }

  /** Forgets the counter `key`. */
  resetFrom(key: string): Promise<void> {
    return this.counters.forget(key);
  }
}

/** How many of something may be open at once per key (event streams). */
export class OpenLimit {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Counts one more open for `key`, or answers false when `max` are open. */
  take(key: string): boolean {
    const count = this.open.get(key) ?? 0;
    if (count >= this.max) return false;
    this.open.set(key, count + 1);
    return true;
  }

  release(key: string): void {
    const count = (this.open.get(key) ?? 1) - 1;
    if (count <= 0) this.open.delete(key);
    else this.open.set(key, count);
  }
}

/**
 * The client an address belongs to: an IPv4 address as it is (written as IPv4-mapped IPv6 too),
 * an IPv6 address by its /64, the block one home or one server is given, so that a client does
 * not get new counters by moving through its own 2^64 addresses.
 */
export function addressKey(ip: string): string {
  const address = ip.split("%")[0] ?? ip;
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  const [g6 = 0, g7 = 0] = groups.slice(6);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing IPv4 part split). */
function ipv6Groups(address: string): number[] {
  const parse = (part: string) =>
    part === ""
      ? []
      : part.split(":").flatMap((group) => {
          if (!group.includes(".")) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = "", tail] = address.split("::");
  if (tail === undefined) return parse(head);
  const front = parse(head);
  const back = parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** Keys that limits are counted by. */
export const by = {
  address: (request: FastifyRequest) => `ip:${addressKey(request.ip)}`,
  member: (request: FastifyRequest) => (request.user ? `user:${request.user.id}` : null),
  /** An anonymous browser by its `vid` cookie; members are counted as members. */
  visitor: (request: FastifyRequest) => {
    const vid = request.cookies?.[VISITOR_COOKIE];
    return request.user || !vid ? null : `vid:${vid}`;
  },
};

/**
 * The limits of what members and anonymous visitors alike may do, each so many `points` every
 * `minutes`: per anonymous browser, per member and per address (counted under `name` and
 * "-browser", "-member" or "-address"), spent in that order.
 */
export function participantLimits(
  store: LimitStore,
  name: string,
  minutes: number,
  points: { browser: number; member: number; address: number },
): Limit[] {
  return [
    new Limit(store, `${name}-browser`, points.browser, minutes, by.visitor),
    new Limit(store, `${name}-member`, points.member, minutes, by.member),
    new Limit(store, `${name}-address`, points.address, minutes, by.address),
  ];
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's limits, and the message its 429 carries. */
    rateLimit?: { message: string; limits: Limit[] };
  }
}

/**
 * Spends from each limit in order; a 429 at the first that is used up, whose later limits are not
 * spent (so a browser refused by its own limit does not use up its address's wider allowance).
 */
export async function spendAll(request: FastifyRequest, message: string, limits: Limit[]) {
  for (const limit of limits) {
    const wait = await limit.spend(request);
    if (wait > 0) throw new RateLimited(message, wait);
  }
}

export const rateLimitPlugin = fp(async (app: FastifyInstance) => {
  // On the routes that have limits, and only there.
  app.addHook("onRoute", (route) => {
    const rule = route.config?.rateLimit;
    if (!rule) return;
    const spend: preHandlerHookHandler = (request, _reply, done) => {
      spendAll(request, rule.message, rule.limits).then(() => done(), done);
    };
    route.preHandler = [...hooksOf(route.preHandler), spend];
  });
});
