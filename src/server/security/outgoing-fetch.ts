// Prism fetching a page a member named (their website, to see that it links back). The member
// chooses the address, so it is fetched with care: http(s) only; in production never an address
// on Prism's own network (every address the host resolves to is checked, at each redirect, and
// the connection goes to the address checked); a few redirects at most; a time and a size bound;
// no cookies and a plain User-Agent.
import { lookup as dnsLookup, promises as dnsPromises, type LookupAddress } from "node:dns";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";

export const FETCH_LIMITS = { redirects: 3, timeoutMs: 5000, maxBytes: 256 * 1024 };

export interface OutgoingFetchOptions {
  /** Which resolved addresses are never connected to (`addressPolicy` gives Prism's). */
  refuses: (address: string) => boolean;
  /** Sent as the User-Agent. */
  userAgent: string;
  /** The whole fetch, redirects included, ends after this long. */
  timeoutMs?: number;
}

export interface FetchedPage {
  /** The address the page was finally read from (after redirects). */
  url: string;
  status: number;
  /** At most `FETCH_LIMITS.maxBytes` of the body, read as UTF-8. */
  body: string;
}

/** Why a page was not fetched: an address that may not be reached, or too many redirects. */
export class RefusedFetch extends Error {}

const privateNetworks = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  privateNetworks.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  privateNetworks.addSubnet(network, prefix, "ipv6");
}

/** An address on a private, loopback, link-local, unique-local or otherwise unroutable network. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return privateNetworks.check(mapped[1], "ipv4");
  return privateNetworks.check(address, family === 4 ? "ipv4" : "ipv6");
}

const anywhere = () => false;

/**
 * The addresses Prism refuses to fetch from: in production those on a private, loopback,
 * link-local or unique-local network; none in development and tests, whose pages are local.
 */
export function addressPolicy(production: boolean): (address: string) => boolean {
  return production ? isPrivateAddress : anywhere;
}

/**
 * Whether Prism refuses to send to `url`: not http(s), or a host that resolves (or is) an address
 * `refuses` names, or that does not resolve. For addresses Prism hands to a client it does not
 * connect itself (an inbox another server named).
 */
export async function refusesUrl(
  url: URL,
  refuses: (address: string) => boolean,
): Promise<boolean> {
  if (url.protocol !== "https:" && url.protocol !== "http:") return true;
  if (refuses === anywhere) return false;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0) return refuses(host);
  try {
    const found = await dnsPromises.lookup(host, { all: true });
    return found.length === 0 || found.some((entry) => refuses(entry.address));
  } catch {
    return true;
  }
}

export const refused = (host: string) =>
  new RefusedFetch(`${host} is not an address Prism fetches`);

/** DNS resolution that fails when any address of the host may not be reached. */
export function guardedLookup(refuses: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, found) => {
      const addresses = found as unknown as LookupAddress[];
      if (error) return callback(error, "", 0);
      const first = addresses[0];
      if (!first) return callback(refused(hostname), "", 0);
      if (addresses.some((entry) => refuses(entry.address))) {
        return callback(refused(hostname), "", 0);
      }
      if (options.all) return (callback as (...args: unknown[]) => void)(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}

/** Reads at most `maxBytes` of the body, then stops the download. */
async function readBounded(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    const buffer = chunk as Buffer;
    chunks.push(buffer.subarray(0, FETCH_LIMITS.maxBytes - size));
    size += buffer.length;
    if (size >= FETCH_LIMITS.maxBytes) break;
  }
  response.destroy();
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function request(
  url: URL,
  options: OutgoingFetchOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0 && options.refuses(host)) {
    return Promise.reject(refused(host));
  }
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.get(url, {
      headers: { "user-agent": options.userAgent, accept: "text/html" },
      lookup: guardedLookup(options.refuses),
      agent: false,
      signal,
    });
    outgoing.once("response", resolve);
    outgoing.once("error", reject);
  });
}

const isHttp = (url: URL) => url.protocol === "http:" || url.protocol === "https:";

/** Fetches `address`, following up to three redirects; throws when it may not or cannot. */
export async function fetchPage(
  address: string,
  options: OutgoingFetchOptions,
): Promise<FetchedPage> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? FETCH_LIMITS.timeoutMs);
  let url = new URL(address);
  for (let redirects = 0; ; redirects++) {
    if (!isHttp(url)) throw new RefusedFetch(`${url.protocol} links are not fetched`);
    const response = await request(url, options, signal);
    const location = response.headers.location;
    if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400) {
      response.destroy();
      if (!location) throw new RefusedFetch("a redirect without a location");
      if (redirects >= FETCH_LIMITS.redirects) throw new RefusedFetch("too many redirects");
      url = new URL(location, url);
      continue;
    }
    return { url: url.href, status: response.statusCode ?? 0, body: await readBounded(response) };
  }
}
