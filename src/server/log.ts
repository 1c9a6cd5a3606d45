// How Prism writes its log: one JSON line per event (pino, Fastify's own), with no secret in it.
// Cookies and authorization headers are redacted, what grants access in a logged URL is masked
// (query values such as reset tokens and sign-in codes, and the token in a response's status
// link, a path segment), and an error is logged by its type, code, message and stack only: a
// failed query's parameters (password hashes, e-mails, visitor hashes), the values a database
// error quotes and its details never reach the log.
import type { FastifyLoggerOptions, FastifyRequest } from "fastify";
import type { PinoLoggerOptions } from "fastify/types/logger.js";

const SECRET_QUERY = /([?&](?:token|code|state)=)[^&#]*/gi;
/** `/responses/{token}`, the page and its API read (`/api/responses/{token}`). */
const SECRET_PATH = /(\/responses\/)[^/?#]+/gi;
const MASK = "[redacted]";

export function redactUrl(url: string): string {
  return url.replace(SECRET_PATH, `$1${MASK}`).replace(SECRET_QUERY, `$1${MASK}`);
}

/**
 * A failed query's message reads "Failed query: …\nparams: …": everything from the parameters on
 * goes. The database quotes offending values in its own messages ('invalid input syntax for type
 * integer: "…"'): quoted text that is not a plain identifier (a constraint's name) is masked.
 */
function redactMessage(message: string): string {
  const params = message.indexOf("\nparams:");
  const kept = params < 0 ? message : `${message.slice(0, params)}\nparams: ${MASK}`;
  return kept.replace(/"([^"]*)"/g, (quoted, inner: string) =>
    /^[a-z_][a-z0-9_]*$/i.test(inner) ? quoted : `"${MASK}"`,
  );
}

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: string;
  cause?: LoggedError;
}

export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: MASK, stack: "" };
  const type = error.constructor?.name ?? "Error";
  const message = redactMessage(error.message);
  // The stack's first lines repeat the message; the frames follow them.
  const frames = error.stack?.indexOf("\n    at ") ?? -1;
  const code = (error as { code?: unknown }).code;
  return {
    type,
    message,
    ...(typeof code === "string" ? { code } : {}),
    stack: `${type}: ${message}${frames >= 0 ? error.stack?.slice(frames) : ""}`,
    ...(error.cause !== undefined && depth < 3
      ? { cause: serializeError(error.cause, depth + 1) }
      : {}),
  };
}

/** The logger settings of the server process. */
export function loggerOptions(level: string): FastifyLoggerOptions & PinoLoggerOptions {
  return {
    level,
    redact: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
    serializers: {
      err: (error: Error) => serializeError(error),
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
      }),
    },
  };
}
