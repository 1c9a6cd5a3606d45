// Budgets for what anyone may send (responses, contact messages, reset e-mails): so many requests
// per key in a window, then a 429 with the form's own message.
import { RateLimiterMemory } from "rate-limiter-flexible";
import { HttpError } from "../http-error.ts";

/** A budget of `points` requests per key every `minutes`; spending from it rejects once used up. */
export function budget(points: number, minutes: number) {
  const limiter = new RateLimiterMemory({ points, duration: minutes * 60 });
  return (key: string) => limiter.consume(key);
}

/** Waits for the spending; a 429 with `message` when a budget was used up. */
export async function withinBudget(message: string, spending: Promise<unknown>): Promise<void> {
  try {
    await spending;
  } catch {
    throw new HttpError(429, message);
  }
}
