import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactMessages as messages } from "../../../contract/contact.ts";
import { contactMessages } from "../../db/schema.ts";
import { jsonHeaders } from "../../test/helpers.ts";
import { setupMailTestApp } from "../../test/mail.ts";

const t = setupMailTestApp({ CONTACT_TO: "team@prism.example" });

const message = (overrides: Record<string, unknown> = {}) => ({
  name: "Noor",
  email: "noor@example.com",
  subject: "Hello",
  message: "I love the idea of annotations on passages.",
  ...overrides,
});

const send = (payload: Record<string, unknown>, remoteAddress = "10.1.1.1") =>
  t.app.inject({
    method: "POST",
    url: "/api/contact",
    headers: jsonHeaders(),
    payload,
    remoteAddress,
  });

describe("POST /api/contact", () => {
  it("stores the message, answers 201 with its id and e-mails the team", async () => {
    const response = await send(message());
    expect(response.statusCode).toBe(201);
    const { id } = response.json();
    const [row] = await t.database.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.id, id));
    expect(row).toMatchObject({ name: "Noor", email: "noor@example.com", subject: "Hello" });
    const [mail] = await t.arrivedAt("team@prism.example", 1);
    expect(mail?.to).toEqual(["team@prism.example"]);
    expect(mail?.raw).toContain("Subject: [Prism contact] Hello");
    expect(mail?.raw).toContain("Reply-To: noor@example.com");
    expect(mail?.raw).toContain("I love the idea of annotations on passages.");
  });

  it.each([
    ["name", { name: "N" }, messages.name],
    ["email", { email: "not-an-address" }, messages.email],
    ["subject", { subject: " " }, messages.subject],
    ["message", { message: "too short" }, messages.message],
  ])(
    "rejects a bad %s with the form's message and stores nothing",
    async (field, overrides, text) => {
      const before = await t.database.db.select().from(contactMessages);
      const response = await send(message(overrides), "10.2.2.2");
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[field]).toBe(text);
      expect(await t.database.db.select().from(contactMessages)).toHaveLength(before.length);
    },
  );

  it("limits how many messages one address sends", async () => {
    for (let i = 0; i < 5; i++) expect((await send(message(), "10.3.3.3")).statusCode).toBe(201);
    const limited = await send(message(), "10.3.3.3");
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(messages.tooMany);
  });
});
