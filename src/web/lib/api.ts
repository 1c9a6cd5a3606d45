// Prism's API client: JSON in and out, cookies always, and the error rules of the spec (§8).
import type { ErrorBody } from "../../contract/errors.ts";
import { type ErrorContext, saveErrorContext } from "./storage.ts";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  /**
   * Where 404 and ≥ 500 answers (and no answer at all) lead: nowhere by default, the caller
   * decides; or, when true, the /error page (for the data a whole page stands on).
   */
  errorPage?: boolean;
  /** Title and description for the /error page of a ≥ 500 answer. */
  failure?: { title: string; description: string };
  signal?: AbortSignal;
}

let goToErrorPage: (context: ErrorContext) => void = (context) => {
  saveErrorContext(context);
  window.location.assign("/error");
};

/** Lets the router take over the navigation to /error, without a reload. */
export function setErrorNavigator(navigate: (path: string) => void) {
  goToErrorPage = (context) => {
    saveErrorContext(context);
    navigate("/error");
  };
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

export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const { errorPage = false } = options;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "include",
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (cause) {
    if ((cause as Error).name === "AbortError") throw cause;
    const description =
      "Unable to connect to the server. Please check your internet connection and try again.";
    if (errorPage) {
      goToErrorPage({
        statusCode: 503,
        title: "Connection Error",
        description,
        message: "Failed to fetch",
      });
    }
    throw new ApiError(503, description);
  }
  if (!response.ok) {
    const error = await readError(response);
    if (errorPage && response.status === 404) {
      goToErrorPage({
        statusCode: 404,
        title: "Resource Not Found",
        description: "The requested resource could not be found.",
        message: error.message,
      });
    } else if (errorPage && response.status >= 500) {
      goToErrorPage({
        statusCode: response.status,
        title: options.failure?.title ?? "Request Failed",
        description:
          options.failure?.description ??
          "We couldn't complete your request. Please try again later.",
        message: error.message,
      });
    }
    throw error;
  }
  if (response.status === 204) return {} as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : {}) as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>("GET", path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("POST", path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("PUT", path, body, options),
  delete: <T>(path: string, options?: RequestOptions) =>
    request<T>("DELETE", path, undefined, options),
};
