// The contact form: a visitor's message to the Prism team, kept, then e-mailed to the team.
import type { ContactInput } from "../../contract/contact.ts";
import { mailContactMessage, storeContactMessage } from "../features/contact/service.ts";
import { commit, type MailingWrite } from "./write.ts";

/**
 * Keeps the message and, once it is kept, e-mails it to the team when the server has their
 * address. Answers the message's id and the mail under way, whose failure is the route's to log:
 * the message is safe in the database, and its sender is not told.
 */
export async function sendContactMessage(
  write: MailingWrite<null>,
  input: ContactInput,
): Promise<{ id: number; mailed: Promise<void> }> {
  const id = await commit(write, (tx) => storeContactMessage(tx, input));
  const { mailer, contactTo } = write.mail;
  return {
    id,
    mailed: contactTo ? mailContactMessage(mailer, contactTo, input) : Promise.resolve(),
  };
}
