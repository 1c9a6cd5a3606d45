// A contact message, sent as the route sends it: kept, then mailed to the team when the server has
// their address; a message that cannot be kept is not mailed.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactMessages } from "../db/schema.ts";
import { expectRefused, refuseWrites } from "../test/faults.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { outbox, run } from "../test/write.ts";
import { sendContactMessage } from "./contact.ts";

const t = setupTestDatabase();

const message = {
  name: "Noor",
  email: "noor@example.com",
  subject: "Hello",
  message: "I love the idea of annotations on passages.",
};

/** Sends `message` as the route does, on a server whose team address is `contactTo`. */
async function send(contactTo: string | undefined) {
  const box = outbox({ contactTo });
  const { result, events } = await run(t.database, null, (write) =>
    sendContactMessage({ ...write, mail: box.mail }, message),
  );
  await result.mailed;
  return { id: result.id, events, sent: box.sent };
}

const stored = (id: number) =>
  t.database.db.select().from(contactMessages).where(eq(contactMessages.id, id));

describe("sendContactMessage", () => {
  it("keeps the message and mails it to the team, replying to its sender", async () => {
    const { id, events, sent } = await send("team@prism.example");
    expect(await stored(id)).toEqual([expect.objectContaining(message)]);
    expect(events).toEqual([]);
    expect(sent).toEqual([
      {
        to: "team@prism.example",
        replyTo: "noor@example.com",
        subject: "[Prism contact] Hello",
        text: "Noor <noor@example.com> wrote:\n\nI love the idea of annotations on passages.\n",
      },
    ]);
  });

  it("only keeps it when the server has no team address", async () => {
    const { id, sent } = await send(undefined);
    expect(await stored(id)).toHaveLength(1);
    expect(sent).toEqual([]);
  });

  it("mails nothing when the message cannot be kept", async () => {
    const box = outbox({ contactTo: "team@prism.example" });
    await refuseWrites(t.database, "contact_messages", "insert");
    await expectRefused(
      run(t.database, null, (write) => sendContactMessage({ ...write, mail: box.mail }, message)),
    );
    expect(box.sent).toEqual([]);
  });
});
