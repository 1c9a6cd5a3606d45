// Anonymous visitors: a long-lived `vid` cookie that the server issued and signed, known to the
// database only as an HMAC.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fastifyCookie from "@fastify/cookie";
import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { LRUCache } from "lru-cache";
import type { Participant, Viewer } from "../actors.ts";
import type { Config } from "../config.ts";
import { type Db, rowsOf } from "../db/client.ts";
import { annotations, prismHearts } from "../db/schema.ts";
import { sessionToken } from "./session.ts";

export const VISITOR_COOKIE = "vid";
const ONE_YEAR = 365 * 24 * 60 * 60;
/** A browser id: random, or an unsigned `vid` of before browser ids were signed. */
const BROWSER_ID = /^[\w-]{1,64}$/;
/** An unsigned `vid` as browsers were given before browser ids were signed. */
const UNSIGNED_VID = /^[\w-]{16,64}$/;

/** The signature of a browser id: an HMAC with the app's secret, 128 bits of it, in base64url. */
const signatureOf = (id: string, secret: string) =>
  createHmac("sha256", secret).update(`vid:${id}`).digest().subarray(0, 16).toString("base64url");

/** The `vid` cookie's value for a browser id: `<id>.<signature>`. */
export function signedVisitorId(id: string, secret: string): string {
  return `${id}.${signatureOf(id, secret)}`;
}

/**
 * The browser id of a `vid` the server signed, or null for any other value. The signature is
 * compared as written, so that no other spelling of it passes for another browser.
 */
function verifiedBrowserId(vid: string, secret: string): string | null {
  const [id = "", signature = "", ...rest] = vid.split(".");
  if (rest.length > 0 || !BROWSER_ID.test(id)) return null;
  const given = Buffer.from(signature);
  const expected = Buffer.from(signatureOf(id, secret));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

/**
 * The browser ids and visitor hashes lately worked out with one secret. Each costs an HMAC, and a
 * browser sends the same `vid` with every request: a page's reads and polls then cost none. Only
 * a `vid` that passed is kept, so a forged one is checked (and refused) every time.
 */
class BrowserKeys {
  private readonly ids = new LRUCache<string, string>({ max: 20_000 });
  private readonly hashes = new LRUCache<string, string>({ max: 20_000 });

  constructor(private readonly secret: string) {}

  idOf(vid: string): string | null {
    const kept = this.ids.get(vid);
    if (kept !== undefined) return kept;
    const id = verifiedBrowserId(vid, this.secret);
    if (id !== null) this.ids.set(vid, id);
    return id;
  }

  hashOf(id: string): string {
    let hash = this.hashes.get(id);
    if (hash === undefined) {
      hash = createHmac("sha256", this.secret).update(id).digest("hex");
      this.hashes.set(id, hash);
    }
    return hash;
  }
}

const keysBySecret = new Map<string, BrowserKeys>();

function keysFor(secret: string): BrowserKeys {
  let keys = keysBySecret.get(secret);
  if (!keys) {
    keys = new BrowserKeys(secret);
    keysBySecret.set(secret, keys);
  }
  return keys;
}

const browserIdOf = (vid: string, secret: string) => keysFor(secret).idOf(vid);

/** The database's key for a browser: the HMAC of its id. */
const hashOf = (id: string, secret: string) => keysFor(secret).hashOf(id);

function setVisitorCookie(reply: FastifyReply, config: Config, vid: string) {
  reply.setCookie(VISITOR_COOKIE, vid, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: config.production && config.appOrigin.startsWith("https:"),
    maxAge: ONE_YEAR,
  });
}

/**
 * Only a `vid` the server signed names a browser: before any route sees a request, any other
 * value is dropped, so it neither counts a view nor keys a per-browser limit, and the browser is
 * one without an id, given a fresh one when it acts. An unsigned `vid` of before browser ids were
 * signed stays its browser's when the database knows it (it hearted or responded): it is signed
 * as it is, so its visitor hash, and with it its hearts and responses, stay the same. Nobody can
 * get an id of their choosing signed that way, since an unsigned one no longer reaches the
 * database.
 */
export const visitorPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db; config: Config; secret: string }) => {
    const { db, config, secret } = opts;
    /** Whether the database knows the browser id: it hearted or responded. */
    const known = async (id: string) => {
      const visitorHash = hashOf(id, secret);
      const [row] = rowsOf<{ known: boolean }>(
        await db.execute(sql`
          select exists (select 1 from ${prismHearts} where ${prismHearts.visitorHash} = ${visitorHash})
            or exists (select 1 from ${annotations} where ${annotations.visitorHash} = ${visitorHash})
            as known`),
      );
      return row?.known === true;
    };
    app.decorateRequest("asker");
    // A callback, not a promise: only an unsigned `vid` has the database to wait for.
    app.addHook("onRequest", (request, reply, done) => {
      request.asker = new RequestAsker(request, reply, config, secret);
      const vid = request.cookies[VISITOR_COOKIE];
      if (vid === undefined || browserIdOf(vid, secret) !== null) return done();
      if (!UNSIGNED_VID.test(vid)) {
        delete request.cookies[VISITOR_COOKIE];
        return done();
      }
      known(vid).then((isKnown) => {
        if (isKnown) {
          const signed = signedVisitorId(vid, secret);
          request.cookies[VISITOR_COOKIE] = signed;
          setVisitorCookie(reply, config, signed);
        } else {
          delete request.cookies[VISITOR_COOKIE];
        }
        done();
      }, done);
    });
  },
);

/** Whether the request came with a browser id the server signed (see `visitorPlugin`). */
export function hasVisitorId(request: FastifyRequest): boolean {
  return request.cookies[VISITOR_COOKIE] !== undefined;
}

/**
 * This browser's id, issued now if it has none. Pages get one with their HTML, so that the
 * first API calls of a new visitor (a heart clicked at once) all carry the same one.
 */
export function ensureVisitorId(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  secret: string,
): string {
  const current = request.cookies[VISITOR_COOKIE];
  if (current) return current.slice(0, current.indexOf("."));
  const id = randomBytes(18).toString("base64url");
  const vid = signedVisitorId(id, secret);
  request.cookies[VISITOR_COOKIE] = vid;
  setVisitorCookie(reply, config, vid);
  return id;
}

/** The visitor hash of this browser, giving it a `vid` cookie first if it has none. */
function visitorHash(request: FastifyRequest, reply: FastifyReply, config: Config, secret: string) {
  return hashOf(ensureVisitorId(request, reply, config, secret), secret);
}

/** The member, or else this browser as an anonymous visitor (given a `vid` if it has none). */
export function participantOf(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  secret: string,
): Participant {
  return request.user
    ? { user: request.user }
    : { visitorHash: visitorHash(request, reply, config, secret) };
}

/**
 * What tells viewers apart in a tag: their session cookie while its session stands (so read once
 * the session is known, when the request carries one), and their visitor cookie.
 */
function viewerCookies(request: FastifyRequest): string {
  return tagCookies(request.user ? sessionToken(request) : "", request.cookies[VISITOR_COOKIE]);
}

/** The viewer's part of a tag: their session's token (none when signed out) and browser id. */
const tagCookies = (session: string | undefined, vid: string | undefined) =>
  `${session ?? ""}|${vid ?? ""}`;

declare module "fastify" {
  interface FastifyRequest {
    /** Who is asking (see `Asker`), for every request. */
    asker: Asker;
  }
}

/** Who is looking, as a read's tag from memory knows them (see cache/cached-read.ts). */
export interface Looker {
  /** Who is looking (once the session is known), without handing a new visitor a cookie. */
  readonly viewer: Viewer;
  /** What tells viewers apart in a tag, as they stand now (see `viewerCookies`). */
  readonly cookies: string;
}

/** Who is asking for a read whose answer differs per viewer (see cache/cached-read.ts). */
export interface Asker extends Looker {
  /** The member, or else this browser as an anonymous visitor (given a `vid` if it has none). */
  readonly participant: Participant;
  /**
   * A browser that came without an id and is not signed in: given one with this answer, it has
   * hearted and responded to nothing yet. Read before `participant`, which gives it that id.
   */
  readonly newBrowser: boolean;
}

/** The request's asker, read from it when first needed: its visitor hash is computed once. */
class RequestAsker implements Asker {
  private hash: string | undefined;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly config: Config,
    private readonly secret: string,
  ) {}

  get viewer(): Viewer {
    return {
      user: this.request.user,
      visitorHash: hasVisitorId(this.request) ? this.visitorHash() : null,
    };
  }

  get participant(): Participant {
    return this.request.user ? { user: this.request.user } : { visitorHash: this.visitorHash() };
  }

  get newBrowser(): boolean {
    return !this.request.user && !hasVisitorId(this.request);
  }

  get cookies(): string {
    return viewerCookies(this.request);
  }

  private visitorHash(): string {
    this.hash ??= visitorHash(this.request, this.reply, this.config, this.secret);
    return this.hash;
  }
}

/** Who is looking when nobody signed in and no browser id come with the request. */
const NOBODY: Looker = {
  viewer: { user: null, visitorHash: null },
  cookies: tagCookies(undefined, undefined),
};

/**
 * Who is looking, from a request's cookie header alone, when it carries no session and either no
 * browser id or one the server signed: as `RequestAsker` tells them once the plugins have run.
 * Undefined for any other request, which only the plugins can tell (see cache/door.ts).
 */
export function lookerOf(
  cookieHeader: string | undefined,
  sessionCookie: string,
  secret: string,
): Looker | undefined {
  if (cookieHeader === undefined) return NOBODY;
  const cookies = fastifyCookie.parse(cookieHeader);
  if (cookies[sessionCookie] !== undefined) return undefined;
  const vid = cookies[VISITOR_COOKIE];
  if (vid === undefined) return NOBODY;
  const id = browserIdOf(vid, secret);
  if (id === null) return undefined;
  return {
    viewer: { user: null, visitorHash: hashOf(id, secret) },
    cookies: tagCookies(undefined, vid),
  };
}
