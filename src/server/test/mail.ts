// Prism's app for a test file, wired to a real SMTP server on loopback that keeps what it receives.
import { EventEmitter, once } from "node:events";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";
import { type App, buildApp } from "../app.ts";
import { type Config, loadConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { MAIL_RETRY_WAITS_MS } from "../mail/mailer.ts";
import { createTestDatabase } from "./databases.ts";
import { TEST_ORIGIN } from "./helpers.ts";

interface ReceivedMail {
  to: string[];
  raw: string;
}

interface MailTestContext {
  app: App;
  database: Database;
  /** The app's configuration, SMTP_URL included (to start another app on the same server). */
  config: Config;
  /** Every message the SMTP server accepted, oldest first. */
  received: ReceivedMail[];
  /** The messages to `address`, once at least `count` of them have arrived. */
  arrivedAt(address: string, count: number): Promise<ReceivedMail[]>;
  /** The reply code the server refuses every message with (e.g. 451), or null: it accepts. */
  refusing: number | null;
  /** How many messages the server refused so far. */
  refused: number;
}

/**
 * A message's source made readable for tests (enough for the ASCII they look for): its headers
 * unfolded and their encoded words undone, and quoted-printable undone.
 */
export function decodedMail(raw: string): string {
  const end = raw.indexOf("\r\n\r\n");
  const head = raw
    .slice(0, end)
    .replace(/\r\n[ \t]+/g, " ")
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=(\s+(?==\?))?/gi, (_, word: string) =>
      word.replace(/_/g, " "),
    );
  return `${head}${raw.slice(end)}`
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** A message's plain-text part as it was written, its transfer encoding (base64 or QP) undone. */
export function plainTextOf(raw: string): string {
  const part =
    /Content-Type: text\/plain[^\r]*\r\nContent-Transfer-Encoding: (\S+)\r\n\r\n([\s\S]*?)\r\n(?:--|$)/i.exec(
      raw,
    );
  if (!part) throw new Error("the message has no plain-text part");
  const [, encoding, body = ""] = part;
  const bytes =
    encoding?.toLowerCase() === "base64"
      ? Buffer.from(body, "base64")
      : Buffer.from(
          body
            .replace(/=\r\n/g, "")
            .replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
              String.fromCharCode(Number.parseInt(hex, 16)),
            ),
          "latin1",
        );
  return bytes.toString("utf8").replace(/\r\n/g, "\n");
}

/**
 * One app, one database and one SMTP server for the whole test file; `now` is the app's clock for
 * e-mail digests.
 */
export function setupMailTestApp(
  env: Record<string, string> = {},
  now?: () => Date,
): MailTestContext {
  const received: ReceivedMail[] = [];
  const arrivals = new EventEmitter();
  const context = {
    received,
    refusing: null,
    refused: 0,
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
        if (context.refusing !== null) {
          context.refused += 1;
          callback(Object.assign(new Error("Try again later"), { responseCode: context.refusing }));
          return;
        }
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
    context.config = loadConfig({
      APP_ORIGIN: TEST_ORIGIN,
      SEED: "none",
      NODE_ENV: "test",
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      ...env,
    });
    // A refused message is tried again as often as in production, without the waits.
    const mailRetryWaitsMs = MAIL_RETRY_WAITS_MS.map(() => 0);
    context.app = await buildApp({
      config: context.config,
      database: created.database,
      now,
      mailRetryWaitsMs,
    });
  });
  afterAll(async () => {
    await context.app?.close();
    await drop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });
  return context;
}
