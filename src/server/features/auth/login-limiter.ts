// Slows password guessing: failed sign-ins are counted per username and per address.
import { RateLimiterMemory } from "rate-limiter-flexible";
import { authMessages } from "../../../contract/auth.ts";
import { HttpError } from "../../http-error.ts";

const WINDOW_SECONDS = 15 * 60;

export class LoginLimiter {
  private readonly byUsername = new RateLimiterMemory({ points: 5, duration: WINDOW_SECONDS });
  private readonly byAddress = new RateLimiterMemory({ points: 20, duration: WINDOW_SECONDS });

  /** Throws a 429 when either counter has used up its failures. */
  async check(username: string, address: string): Promise<void> {
    const [user, ip] = await Promise.all([
      this.byUsername.get(username.toLowerCase()),
      this.byAddress.get(address),
    ]);
    const blocked = [
      user && user.consumedPoints >= 5 ? user : null,
      ip && ip.consumedPoints >= 20 ? ip : null,
    ].filter((r) => r !== null);
    if (blocked.length > 0) {
      const waitMs = Math.max(...blocked.map((r) => r.msBeforeNext));
      const error = new HttpError(429, authMessages.tooManyAttempts);
      (error as HttpError & { retryAfter: number }).retryAfter = Math.ceil(waitMs / 1000);
      throw error;
    }
  }

  async recordFailure(username: string, address: string): Promise<void> {
    await Promise.all([
      this.byUsername.penalty(username.toLowerCase(), 1),
      this.byAddress.penalty(address, 1),
    ]);
  }

  async recordSuccess(username: string): Promise<void> {
    await this.byUsername.delete(username.toLowerCase());
  }
}
