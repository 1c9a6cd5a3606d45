// An anonymous author who leaves an e-mail address with their response, against a real SMTP
// server: told of the owner's decision and of the reply, each once, with a one-click unsubscribe
// that forgets the address; never mailed for spam, nor without an address, nor as a member.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailMessages } from "../../../contract/email.ts";
import { annotations } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { asSent, send, signIn } from "../../test/helpers.ts";
import { decodedMail, plainTextOf, setupMailTestApp } from "../../test/mail.ts";
import { authorUnsubscribeToken } from "./service.ts";

const SECRET = "a-secret-for-the-author-mail-tests-0";
const t = setupMailTestApp({ APP_SECRET: SECRET });

const mailsTo = (address: string) => t.received.filter((mail) => mail.to.includes(address));

let authors = 0;
/** An owner with a prism, and a visitor's response to it, with `email` when given. */
async function responded(email?: string) {
  const owner = await buildUser(t.database, { firstName: "Theo", lastName: "Lindqvist" });
  const headers = await signIn(t.database, owner);
  const prism = await buildPrism(t.database, {
    userId: owner.id,
    title: "How I work",
    content: "<p>Mornings are for deep work.</p>",
  });
  authors += 1;
  const remoteAddress = `10.8.${(authors >> 8) & 255}.${authors & 255}`;
  const response = await send(t.app, "POST", "/api/annotations", {
    remoteAddress,
    payload: await asSent(
      t.app,
      {},
      {
        prismId: prism.id,
        annotationText: "Mornings suit me too.",
        annotatorName: "Maya",
        annotatorEmail: email,
        selectedText: "Mornings",
        selectionStart: 0,
        selectionEnd: 8,
      },
      remoteAddress,
    ),
  });
  expect(response.statusCode).toBe(201);
  const { id } = response.json() as { id: number };
  const act = async (method: "PUT" | "POST", url: string, payload: object) => {
    const answer = await send(t.app, method, url, { headers, payload });
    expect(answer.statusCode, answer.body).toBe(200);
    await t.app.emailNotifier.idle();
  };
  return {
    owner,
    prism,
    id,
    decide: (status: "approved" | "rejected") =>
      act("PUT", `/api/annotations/${id}/status`, { status }),
    reply: (text: string) => act("PUT", `/api/annotations/${id}/reply`, { text }),
    bulk: (action: "spam") => act("POST", "/api/annotations/bulk", { ids: [id], action }),
  };
}

describe("an anonymous author who left an e-mail address", () => {
  it("is told once of the approval and once of the reply, with a link to the page", async () => {
    const email = "maya.approved@example.com";
    const { id, prism, owner, decide, reply } = await responded(email);
    expect(mailsTo(email)).toEqual([]);

    await decide("approved");
    const [approval, ...none] = mailsTo(email);
    expect(none).toEqual([]);
    const head = decodedMail(approval?.raw ?? "");
    expect(head).toContain('Subject: Your response to "How I work" was approved');
    const token = authorUnsubscribeToken(SECRET, id);
    expect(head).toContain(
      `List-Unsubscribe: <http://localhost:3000/api/email/unsubscribe?token=${token}>`,
    );
    expect(head).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    const text = plainTextOf(approval?.raw ?? "");
    expect(text).toContain("Theo Lindqvist approved your response");
    expect(text).toContain('You responded to "Mornings":\n  "Mornings suit me too."');
    expect(text).toContain(`http://localhost:3000/${owner.username}?prism=${prism.id}`);

    await reply("Glad to hear it.");
    await reply("Glad to hear it, truly.");
    const [, replied, ...more] = mailsTo(email);
    expect(more).toEqual([]);
    expect(decodedMail(replied?.raw ?? "")).toContain(
      'Subject: Theo Lindqvist replied to your response to "How I work"',
    );
    expect(plainTextOf(replied?.raw ?? "")).toContain(
      'Theo Lindqvist wrote:\n  "Glad to hear it."',
    );
  });

  it("is told that the response was not approved, without a link to where it is not shown", async () => {
    const email = "maya.rejected@example.com";
    const { decide, prism } = await responded(email);
    await decide("rejected");
    const [mail, ...more] = mailsTo(email);
    expect(more).toEqual([]);
    expect(decodedMail(mail?.raw ?? "")).toContain(
      'Subject: Your response to "How I work" was not approved',
    );
    const text = plainTextOf(mail?.raw ?? "");
    expect(text).toContain("It is not shown on their page.");
    expect(text).not.toContain(`?prism=${prism.id}`);
  });

  it("is never mailed when the owner sets the response aside as spam", async () => {
    const email = "maya.spam@example.com";
    const { bulk } = await responded(email);
    await bulk("spam");
    expect(mailsTo(email)).toEqual([]);
  });

  it("unsubscribes in one click, which forgets the address, and is mailed nothing more", async () => {
    const email = "maya.leaves@example.com";
    const { id, decide, reply } = await responded(email);
    await decide("approved");
    expect(mailsTo(email)).toHaveLength(1);
    const forged = await t.app.inject({
      method: "POST",
      url: `/api/email/unsubscribe?token=${encodeURIComponent(authorUnsubscribeToken("another secret", id))}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(forged.statusCode).toBe(404);
    const answer = await t.app.inject({
      method: "POST",
      url: `/api/email/unsubscribe?token=${encodeURIComponent(authorUnsubscribeToken(SECRET, id))}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ message: emailMessages.unsubscribed });
    const [row] = await t.database.db
      .select({ email: annotations.annotatorEmail })
      .from(annotations)
      .where(eq(annotations.id, id));
    expect(row?.email).toBeNull();
    await reply("Thank you.");
    expect(mailsTo(email)).toHaveLength(1);
  });

  it("is mailed a decision the mail server refused with the next message", async () => {
    const email = "maya.refused@example.com";
    const { decide, reply } = await responded(email);
    t.refusing = 550;
    try {
      await decide("approved");
    } finally {
      t.refusing = null;
    }
    expect(mailsTo(email)).toEqual([]);
    await reply("Welcome.");
    expect(mailsTo(email).map((mail) => decodedMail(mail.raw).match(/Subject: .*/)?.[0])).toEqual([
      'Subject: Your response to "How I work" was approved',
      'Subject: Theo Lindqvist replied to your response to "How I work"',
    ]);
  });
});

describe("a response without an address, or a member's", () => {
  it("mails no author", async () => {
    const before = t.received.length;
    const { decide, reply } = await responded();
    await decide("approved");
    await reply("Thanks.");
    expect(t.received.slice(before).filter((mail) => mail.to.includes("maya"))).toEqual([]);
  });
});
