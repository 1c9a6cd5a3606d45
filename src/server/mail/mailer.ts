// Outgoing mail: SMTP when SMTP_URL is set. Without it nothing is sent, and the log says so by
// the message's subject alone: a message may carry a secret (a reset link), so its text and
// recipient are never logged.
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import { oneLine } from "../../contract/text.ts";
import type { Config } from "../config.ts";

interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The same message as simple HTML, sent beside the text. */
  html?: string;
  /** Further headers (List-Unsubscribe, …). */
  headers?: Record<string, string>;
  replyTo?: string;
}

export interface Mailer {
  /** Whether messages really go out (SMTP_URL is set). */
  canSend: boolean;
  send(mail: Mail): Promise<void>;
}

export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  if (!config.smtpUrl) {
    return {
      canSend: false,
      async send(mail) {
        log.warn({ subject: mail.subject }, "mail not sent: SMTP_URL is not set");
      },
    };
  }
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    canSend: true,
    async send(mail) {
      // One line, whatever a title or a name in it holds: no text of a member's starts a header.
      await transport.sendMail({ from: config.mailFrom, ...mail, subject: oneLine(mail.subject) });
    },
  };
}

/** The waits before each new try of a message the server refused for now: three tries in 12 s. */
export const MAIL_RETRY_WAITS_MS: readonly number[] = [2_000, 10_000];

/** Failures that say "not now": connections that failed, and the server's 4xx replies. */
const TRANSIENT_CODES = new Set(["ECONNECTION", "ETIMEDOUT", "ESOCKET"]);

/** Whether the same message may go later: the server refused it for now, or was not reached. */
export function isTransient(error: unknown): boolean {
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  return typeof responseCode === "number"
    ? responseCode >= 400 && responseCode < 500
    : TRANSIENT_CODES.has(String(code));
}

/**
 * Sends `mail`, and again after each of `waits` while the failure is transient; throws the last
 * failure.
 */
export async function sendRetrying(mailer: Mailer, mail: Mail, waits: readonly number[]) {
  for (const wait of waits) {
    try {
      return await mailer.send(mail);
    } catch (error) {
      if (!isTransient(error)) throw error;
      await sleep(wait);
    }
  }
  return mailer.send(mail);
}
