// Errors that services throw and the error handler turns into `{ message, errors? }`, and the
// response schemas that routes declare for them.
import { errorBodySchema } from "../contract/errors.ts";

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: Record<string, string>) =>
  new HttpError(400, message, errors);
export const unauthorized = (message = "You are not signed in") => new HttpError(401, message);
export const forbidden = (message = "You are not allowed to do that") =>
  new HttpError(403, message);
export const notFound = (message = "Not found") => new HttpError(404, message);
export const conflict = (message: string, errors?: Record<string, string>) =>
  new HttpError(409, message, errors);
/** A service the call needs (outgoing mail, say) is not configured on this server. */
export const unavailable = (message: string) => new HttpError(503, message);

/** The response schemas of the error statuses a route answers, for its `response` map. */
export function errorResponses<const Status extends number>(
  ...statuses: Status[]
): Record<Status, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<
    Status,
    typeof errorBodySchema
  >;
}
