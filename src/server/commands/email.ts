// E-mail notifications: the one-click unsubscribe of a message's link, which needs no session.
import { emailMessages } from "../../contract/email.ts";
import { unsubscribe as turnEmailOff } from "../features/email/service.ts";
import { notFound } from "../http-error.ts";
import { commit, type MailingWrite } from "./write.ts";

/** Turns e-mail notifications off for the member whose unsubscribe token this is; else a 404. */
export async function unsubscribe(write: MailingWrite<null>, token: string): Promise<void> {
  const done = await commit(write, (tx) => turnEmailOff(tx, write.mail.secret, token));
  if (!done) throw notFound(emailMessages.unknownToken);
}
