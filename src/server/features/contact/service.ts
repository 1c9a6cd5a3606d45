// Contact messages: stored first, then e-mailed to the team when CONTACT_TO is set.
import type { ContactInput } from "../../../contract/contact.ts";
import type { Db } from "../../db/client.ts";
import { contactMessages } from "../../db/schema.ts";
import type { Mailer } from "../../mail/mailer.ts";

export async function receiveContactMessage(
  db: Db,
  mailer: Mailer,
  contactTo: string | undefined,
  input: ContactInput,
): Promise<{ id: number; mailed: Promise<void> }> {
  const [row] = await db
    .insert(contactMessages)
    .values(input)
    .returning({ id: contactMessages.id });
  if (!row) throw new Error("insert returned no row");
  // The message is safe in the database; a mail failure is logged by the caller, not the sender's problem.
  const mailed = contactTo
    ? mailer.send({
        to: contactTo,
        replyTo: input.email,
        subject: `[Prism contact] ${input.subject}`,
        text: `${input.name} <${input.email}> wrote:\n\n${input.message}\n`,
      })
    : Promise.resolve();
  return { id: row.id, mailed };
}
