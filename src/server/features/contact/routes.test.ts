import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactMessages as messages } from "../../../contract/contact.ts";
import { buildApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import { contactMessages } from "../../db/schema.ts";
import { createTestDatabase } from "../../test/databases.ts";
import { jsonHeaders, TEST_ORIGIN } from "../../test/helpers.ts";

// A real SMTP server on loopback receives what Prism sends.
const received: { to: string[]; raw: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, session, callback) {
    let raw = "";
    stream.on("data", (chunk) => {
      raw += chunk;
    });
    stream.on("end", () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
      callback();
    });
  },
});

let app: Awaited<ReturnType<typeof buildApp>>;
let drop: () => Promise<void>;
let database: Awaited<ReturnType<typeof createTestDatabase>>["database"];

beforeAll(async () => {
  const port = await new Promise<number>((resolve) => {
    smtp.listen(0, "127.0.0.1", () => resolve((smtp.server.address() as { port: number }).port));
  });
  ({ database, drop } = await createTestDatabase());
  const config = loadConfig({
    APP_ORIGIN: TEST_ORIGIN,
    SEED: "none",
    NODE_ENV: "test",
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    CONTACT_TO: "team@prism.example",
  });
  app = await buildApp({ config, database });
});

afterAll(async () => {
  await app.close();
  await drop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const message = (overrides: Record<string, unknown> = {}) => ({
  name: "Noor",
  email: "noor@example.com",
  subject: "Hello",
  message: "I love the idea of annotations on passages.",
  ...overrides,
});

const send = (payload: Record<string, unknown>, remoteAddress = "10.1.1.1") =>
  app.inject({
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
    const [row] = await database.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.id, id));
    expect(row).toMatchObject({ name: "Noor", email: "noor@example.com", subject: "Hello" });
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]?.to).toEqual(["team@prism.example"]);
    expect(received[0]?.raw).toContain("Subject: [Prism contact] Hello");
    expect(received[0]?.raw).toContain("Reply-To: noor@example.com");
    expect(received[0]?.raw).toContain("I love the idea of annotations on passages.");
  });

  it.each([
    ["name", { name: "N" }, messages.name],
    ["email", { email: "not-an-address" }, messages.email],
    ["subject", { subject: " " }, messages.subject],
    ["message", { message: "too short" }, messages.message],
  ])(
    "rejects a bad %s with the form's message and stores nothing",
    async (field, overrides, text) => {
      const before = await database.db.select().from(contactMessages);
      const response = await send(message(overrides), "10.2.2.2");
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[field]).toBe(text);
      expect(await database.db.select().from(contactMessages)).toHaveLength(before.length);
    },
  );

  it("limits how many messages one address sends", async () => {
    for (let i = 0; i < 5; i++) expect((await send(message(), "10.3.3.3")).statusCode).toBe(201);
    const limited = await send(message(), "10.3.3.3");
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(messages.tooMany);
  });
});
