// The four sensitive actions (changing the e-mail or password, connecting or disconnecting Google,
// deleting the account) ask the member to show again who they are, so that a stolen session is not a
// stolen account: the current password in the same request, or, for a Google-only account, a
// Google sign-in in this session within the last 10 minutes. Wrong passwords are limited per
// member, so that a stolen session cannot guess its way to the password.
import type { FastifyRequest } from "fastify";
import { reauthMessages } from "../../../contract/user.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { badRequest, forbidden } from "../../http-error.ts";
import { by, Limit, RateLimited } from "../../plugins/rate-limit.ts";
import type { LimitStore } from "../../plugins/rate-limit-store.ts";
import { requireUser, sessionToken } from "../../plugins/session.ts";
import { verifyPassword } from "../../security/passwords.ts";
import { isRecentlyConfirmed } from "../../security/session-store.ts";

export function createReauth(db: Db, config: Config, limitStore: LimitStore) {
  // Every check spends a point and a right password gives it back: 5 wrong in 15 minutes, then
  // even the right one waits.
  const wrongPasswords = new Limit(limitStore, "reauth", 5, 15, by.member);

  /** Passes when the signed-in member showed again who they are; a 400, 403 or 429 otherwise. */
  return async function reauthenticate(
    request: FastifyRequest,
    currentPassword: string | undefined,
  ): Promise<void> {
    const user = requireUser(request);
    if (user.password === null) {
      if (!config.google) throw forbidden(reauthMessages.googleUnavailable);
      const token = sessionToken(request);
      if (!token || !(await isRecentlyConfirmed(db, token))) {
        throw forbidden(reauthMessages.confirmWithGoogle);
      }
      return;
    }
    if (!currentPassword) {
      const message = reauthMessages.currentPasswordRequired;
      throw badRequest(message, { currentPassword: message });
    }
    const wait = await wrongPasswords.spend(request);
    if (wait > 0) throw new RateLimited(reauthMessages.tooManyGuesses, wait);
    if (!(await verifyPassword(user.password, currentPassword))) {
      const message = reauthMessages.currentPasswordWrong;
      throw badRequest(message, { currentPassword: message });
    }
    await wrongPasswords.refund(request);
  };
}
