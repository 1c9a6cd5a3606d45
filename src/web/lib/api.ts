// Prism's API client: JSON in and out, cookies always, and the error rules of the spec (§8).

import type { ErrorBody } from "../../contract/errors.ts";
import { HEARD_EVENT_HEADER } from "../../contract/events.ts";
import { type ErrorContext, saveErrorContext } from "./storage.ts";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string>,
    /** No answer came back at all (the network, or the server is down). */
    readonly unreachable = false,
  ) {
    super(message);
  }
}

/** Title and description for the /error page of a ≥ 500 answer. */
interface Failure {
  title: string;
  description: string;
}

export interface RequestOptions {
  /**
   * Where 404 and ≥ 500 answers (and no answer at all) lead: nowhere by default, the caller
   * decides; or, when true, the /error page (for the data a whole page stands on).
   */
  errorPage?: boolean;
  /** With `errorPage`: a 404 stays with the page, which has its own not-found page. */
  ownNotFound?: boolean;
  /**
   * With `errorPage`: the page already shows an earlier answer (this is a refetch). When no answer
   * comes at all (the connection dropped), the page keeps showing it rather than leaving for
   * /error, whose own script could not load offline; the connection notice says the browser is
   * offline, and the page is refetched once it is back online.
   */
  shown?: boolean;
  failure?: Failure;
  signal?: AbortSignal;
  /** The request outlives the page (a beacon sent as a reader leaves still arrives). */
  keepalive?: boolean;
}

const unreachableDescription =
  "Unable to connect to the server. Please check your internet connection and try again.";

/** What the /error page says of a failed request (spec §8); null when it is not for that page. */
function errorContextOf(error: unknown, failure?: Failure): ErrorContext | null {
  if (!(error instanceof ApiError)) return null;
  if (error.unreachable) {
    return {
      statusCode: 503,
      title: "Connection Error",
      description: unreachableDescription,
      message: "Failed to fetch",
    };
  }
  if (error.status === 404) {
    return {
      statusCode: 404,
      title: "Resource Not Found",
      description: "The requested resource could not be found.",
      message: error.message,
    };
  }
  if (error.status >= 500) {
    return {
      statusCode: error.status,
      title: failure?.title ?? "Request Failed",
      description:
        failure?.description ?? "We couldn't complete your request. Please try again later.",
      message: error.message,
    };
  }
  return null;
}

let navigateTo: (path: string) => void = (path) => window.location.assign(path);

/** Lets the router take over the navigation to /error, without a reload. */
export function setErrorNavigator(navigate: (path: string) => void) {
  navigateTo = navigate;
}

/**
 * Shows the /error page for a failed request that a whole page stands on, remembering the page
 * for its Retry button. False when the failure is not one for that page (e.g. a 401).
 */
export function showErrorPage(error: unknown, failure?: Failure): boolean {
  const context = errorContextOf(error, failure);
  if (!context) return false;
  // Another request of the page that failed, answered after the page went: the first one shows.
  if (window.location.pathname === "/error") return true;
  saveErrorContext({ ...context, retryPath: window.location.pathname + window.location.search });
  navigateTo("/error");
  return true;
}

async function readError(response: Response): Promise<ApiError> {
  let body: Partial<ErrorBody> | null = null;
  try {
    body = (await response.json()) as Partial<ErrorBody>;
  } catch {
    body = null;
  }
  const message =
    typeof body?.message === "string" && body.message
      ? body.message
      : `Error ${response.status}: ${response.statusText}`;
  return new ApiError(response.status, message, body?.errors);
}

/** How a request reaches the server: the browser's fetch, or the server's own when it renders. */
export type ApiTransport = (path: string, init: RequestInit) => Promise<Response>;

let transport: ApiTransport = (path, init) => fetch(path, init);

/** Used once by the server-side renderer, which answers the page's requests itself. */
export function setApiTransport(next: ApiTransport) {
  transport = next;
}

/** The name of the last event the page's stream brought, sent with its requests. */
let heardEvent = "";

/** The page's stream brought the event named `id` (none for an event without a name). */
export function setHeardEvent(id: string) {
  if (id) heardEvent = id;
}

async function send(
  method: string,
  path: string,
  body: unknown,
  { signal, keepalive }: Pick<RequestOptions, "signal" | "keepalive">,
) {
  const headers: Record<string, string> = {};
  // A file (a photo) goes as its bytes, with its own type; anything else as JSON.
  const file = body instanceof Blob;
  if (body !== undefined) headers["content-type"] = file ? body.type : "application/json";
  if (heardEvent) headers[HEARD_EVENT_HEADER] = heardEvent;
  try {
    return await transport(path, {
      method,
      credentials: "include",
      headers,
      body: body === undefined || file ? body : JSON.stringify(body),
      signal,
      keepalive,
    });
  } catch (cause) {
    if ((cause as Error).name === "AbortError") throw cause;
    throw new ApiError(503, unreachableDescription, undefined, true);
  }
}

export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  try {
    const response = await send(method, path, body, options);
    if (!response.ok) throw await readError(response);
    if (response.status === 204) return {} as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : {}) as T;
  } catch (error) {
    // A request given up on (a newer one replaces it) leads nowhere, even if its answer came.
    const kept =
      options.signal?.aborted ||
      (options.ownNotFound && error instanceof ApiError && error.status === 404) ||
      (options.shown && error instanceof ApiError && error.unreachable);
    if (options.errorPage && !kept) showErrorPage(error, options.failure);
    throw error;
  }
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>("GET", path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("POST", path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("PUT", path, body, options),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("DELETE", path, body, options),
};
