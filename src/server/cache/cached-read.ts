// A cached read, declared once in its feature's reads.ts: the schemas of what its address carries
// (which its route declares as its own), whom its answer is for, its tag from memory, and the
// read. Its route spreads `cachedRead(read)` into its options; the hooks of conditional.ts then
// answer an unchanged request 304, or with the answer they keep, before the handler runs, and
// the handler reads, tags what it read when memory could not, and replies.
import type { FastifyReply, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import type { z } from "zod";
import type { UserRow } from "../db/schema.ts";
import { type Limit, spendAll } from "../plugins/rate-limit.ts";
import { requireUser } from "../plugins/session.ts";
import type { Asker, Looker } from "../plugins/visitor.ts";
import { answeredUnchanged, type RouteRead, sendWritten } from "./conditional.ts";

/**
 * What a read answers one asker. `etag` makes its entity tag when only the read can tell it (from
 * the versions its data was read under), called only when memory could not tag the request.
 */
export interface Answer<T> {
  value: T;
  etag?: () => string | undefined;
}

/** An answer kept in memory as the JSON written for it. */
export interface WrittenAnswer {
  written: string;
  etag?: () => string | undefined;
}

/** Another address answers this one (a share card's earlier version: the current one's). */
export interface Redirect {
  redirect: string;
}

type Reply = Answer<unknown> | WrittenAnswer | Redirect;
/** The value a reply sends as it is (serialized by the route's response schema). */
type ValueOf<A> = A extends Answer<infer T> ? T : never;

/** The client asking for a read that is the same for everyone. */
export interface Client {
  /** Spends from each of the client's limits before costly work; see `spendAll`. */
  spend(message: string, limits: Limit[]): Promise<void>;
}

/** Whom a read's answer is for, and what its tag and read are given of who asks. */
interface Askers {
  /** The same for everyone: a JSON answer is kept whole in the response cache, by its tag. */
  everyone: Client;
  /**
   * It differs per viewer, whom the tag names by their cookies: asked with a session cookie, it
   * is tagged once the session is known.
   */
  viewer: Asker;
  /** The signed-in member's own: tagged once the session is known. */
  member: UserRow;
}

/**
 * The client of a read that is the same for everyone, made for every request: a class, not an
 * object around a closure, which the server's TypeScript loader names anew each time it is made
 * (half a microsecond, 2 % of a cached read's CPU).
 */
class RequestClient implements Client {
  constructor(private readonly request: FastifyRequest) {}

  spend(message: string, limits: Limit[]): Promise<void> {
    return spendAll(this.request, message, limits);
  }
}

const askers: { [For in keyof Askers]: (request: FastifyRequest) => Askers[For] } = {
  everyone: (request) => new RequestClient(request),
  viewer: (request) => request.asker,
  member: requireUser,
};

/** What a read's tag from memory is given of who asks: what tells them apart, and no more. */
interface Lookers {
  everyone: undefined;
  viewer: Looker;
  member: UserRow;
}

const lookers: { [For in keyof Lookers]: (request: FastifyRequest) => Lookers[For] } = {
  everyone: () => undefined,
  viewer: (request) => request.asker,
  member: requireUser,
};

/**
 * The same, for someone not signed in, told at the door (see door.ts) by their cookies alone. A
 * member's own read is tagged only once the session is known, never at the door.
 */
const lookersAtTheDoor: {
  [For in keyof Lookers]: ((looker: Looker) => Lookers[For]) | undefined;
} = {
  everyone: () => undefined,
  viewer: (looker) => looker,
  member: undefined,
};

/** A schema of what an address carries; none leaves it unread. */
type Address = z.ZodType<object>;
type Values<S> = S extends Address ? z.output<S> : unknown;

export interface CachedRead<
  For extends keyof Askers,
  Params extends Address | undefined,
  Query extends Address | undefined,
  A extends Reply,
> {
  for: For;
  /** The route's own schemas of its path parameters and its query string. */
  params?: Params;
  querystring?: Query;
  /** The answer's content type when it is not JSON: then it is never kept whole. */
  type?: string;
  /** The tag from memory alone; none when memory does not tell (the read then tags its answer). */
  etag(input: Values<Params> & Values<Query>, looker: Lookers[For]): string | undefined;
  /** The answer; a 404 and the like are thrown as `HttpError`s. */
  read(input: Values<Params> & Values<Query>, asker: Askers[For]): Promise<A>;
}

/** Declares a cached read (in its feature's reads.ts). */
export const defineRead = <
  For extends keyof Askers,
  A extends Reply,
  Params extends Address | undefined = undefined,
  Query extends Address | undefined = undefined,
>(
  read: CachedRead<For, Params, Query, A>,
) => read;

/**
 * The values of the request's address as the read's schemas read them: before validation, parsed
 * here (undefined when they are not valid, which validation then answers with a 400); after it,
 * as validation left them.
 */
function inputOf<Input>(
  read: { params?: Address; querystring?: Address },
  request: FastifyRequest,
  validated: boolean,
): Input | undefined {
  const parse = (schema: Address | undefined, value: unknown) =>
    schema === undefined ? {} : validated ? value : schema.safeParse(value).data;
  const params = parse(read.params, request.params);
  const query = parse(read.querystring, request.query);
  if (params === undefined || query === undefined) return undefined;
  return (read.querystring ? (read.params ? { ...params, ...query } : query) : params) as Input;
}

/**
 * Replies with an answer: tagged with the read's tag when memory could not tag the request (304
 * when the browser holds that version); JSON written already is sent as it is.
 */
function sendAnswer<A extends Reply>(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: A,
  type: string | undefined,
): FastifyReply | ValueOf<A> {
  if ("redirect" in answer) return reply.redirect(answer.redirect);
  if (type) reply.type(type);
  // An answer is kept under the tag memory gave it only when it is that tag's: a change racing
  // the request made it another (newer) one, which a tag made of an answer's text may name later.
  if (request.answerKey !== undefined && answer.etag && answer.etag() !== request.etag) {
    request.answerKey = undefined;
  }
  const etag = request.etag === undefined && answer.etag?.();
  if (etag && answeredUnchanged(request, reply, etag)) return reply;
  return "written" in answer ? sendWritten(reply, answer.written) : (answer.value as ValueOf<A>);
}

/** What a route spreads into its options to answer with `read`: its config and its handler. */
export function cachedRead<
  For extends keyof Askers,
  Params extends Address | undefined,
  Query extends Address | undefined,
  A extends Reply,
>(read: CachedRead<For, Params, Query, A>) {
  type Input = Values<Params> & Values<Query>;
  const askerOf = askers[read.for];
  const lookerOf = lookers[read.for];
  const lookerAtTheDoor = lookersAtTheDoor[read.for];
  // What an address's values parse to, by address: the same address is asked for again and
  // again (a page polls, many readers read one page), and its answer comes from memory, so it
  // need not be parsed again each time before validation. Bounded by the text of the addresses.
  const parsed = new LRUCache<string, { input: Input | undefined }>({
    maxSize: 1024 * 1024,
    sizeCalculation: (_entry, url) => url.length + 64,
  });
  const parsedInput = (request: FastifyRequest) => {
    let entry = parsed.get(request.url);
    if (entry === undefined) {
      entry = { input: inputOf<Input>(read, request, false) };
      parsed.set(request.url, entry);
    }
    return entry.input;
  };
  const route: RouteRead = {
    for: read.for,
    // A member's own answer is tagged only once the session is known; every other JSON answer's
    // tag names it whole (for one viewer, their cookies too), so it may be kept under it.
    keep: read.for !== "member" && read.type === undefined,
    etag(request, validated) {
      const input = validated ? inputOf<Input>(read, request, true) : parsedInput(request);
      return input === undefined ? undefined : read.etag(input, lookerOf(request));
    },
    // The address was parsed when Fastify answered it (the door learns it only then).
    etagAtDoor:
      lookerAtTheDoor &&
      ((url, looker) => {
        const input = parsed.get(url)?.input;
        return input === undefined ? undefined : read.etag(input, lookerAtTheDoor(looker));
      }),
  };
  return {
    config: { cachedRead: route },
    // A kept answer is compressed by the response cache, once per encoding (conditional.ts).
    ...(route.keep ? { compress: false as const } : {}),
    handler: async (request: FastifyRequest, reply: FastifyReply) =>
      sendAnswer(
        request,
        reply,
        await read.read(inputOf<Input>(read, request, true) as Input, askerOf(request)),
        read.type,
      ),
  };
}
