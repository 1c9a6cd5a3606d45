// Contact messages: stored first, then e-mailed to the team when CONTACT_TO is set.
import type { ContactInput } from "../../../contract/contact.ts";
import type { Executor } from "../../db/client.ts";
import { contactMessages } from "../../db/schema.ts";
import type { Mailer } from "../../mail/mailer.ts";

/** Keeps the message; answers its id. */
export async function storeContactMessage(db: Executor, input: ContactInput): Promise<number> {
  const [row] = await db
    .insert(contactMessages)
    .values(input)
    .returning({ id: contactMessages.id });
  if (!row) throw new Error("insert returned no row");
  return row.id;
}

/** E-mails the message to the team at `contactTo`; replying answers its sender. */
export async function mailContactMessage(
  mailer: Mailer,
  contactTo: string,
  input: ContactInput,
): Promise<void> {
  await mailer.send({
    to: contactTo,
    replyTo: input.email,
    subject: `[Prism contact] ${input.subject}`,
    text: `${input.name} <${input.email}> wrote:\n\n${input.message}\n`,
  });
}
