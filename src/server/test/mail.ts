// Prism's app for a test file, wired to a real SMTP server on loopback that keeps what it receives.
import { EventEmitter, once } from "node:events";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";
import { type App, buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { createTestDatabase } from "./databases.ts";
import { TEST_ORIGIN } from "./helpers.ts";

interface ReceivedMail {
  to: string[];
  raw: string;
}

interface MailTestContext {
  app: App;
  database: Database;
  /** Every message the SMTP server accepted, oldest first. */
  received: ReceivedMail[];
  /** The messages to `address`, once at least `count` of them have arrived. */
  arrivedAt(address: string, count: number): Promise<ReceivedMail[]>;
}

/** One app, one database and one SMTP server for the whole test file. */
export function setupMailTestApp(env: Record<string, string> = {}): MailTestContext {
  const received: ReceivedMail[] = [];
  const arrivals = new EventEmitter();
  const context = {
    received,
    async arrivedAt(address, count) {
      const to = () => received.filter((mail) => mail.to.includes(address));
      while (to().length < count) await once(arrivals, "mail");
      return to();
    },
  } as MailTestContext;
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
        arrivals.emit("mail");
        callback();
      });
    },
  });
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      smtp.listen(0, "127.0.0.1", () => resolve((smtp.server.address() as { port: number }).port));
    });
    const created = await createTestDatabase();
    drop = created.drop;
    context.database = created.database;
    const config = loadConfig({
      APP_ORIGIN: TEST_ORIGIN,
      SEED: "none",
      NODE_ENV: "test",
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      ...env,
    });
    context.app = await buildApp({ config, database: created.database });
  });
  afterAll(async () => {
    await context.app?.close();
    await drop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });
  return context;
}
