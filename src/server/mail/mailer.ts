// Outgoing mail: SMTP when SMTP_URL is set. Without it nothing is sent, and the log says so by
// the message's subject alone: a message may carry a secret (a reset link), so its text and
// recipient are never logged.
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
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
      await transport.sendMail({ from: config.mailFrom, ...mail });
    },
  };
}
