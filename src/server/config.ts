// Prism's configuration: environment variables, parsed once at boot.
import { availableParallelism } from "node:os";
import { z } from "zod";

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|pglite:)/, "must start with postgres://, postgresql:// or pglite:")
    .optional(),
  APP_ORIGIN: z.url().optional(),
  APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  SEED: z.enum(["demo", "none"]).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Prism <no-reply@prism.local>"),
  CONTACT_TO: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z.url().default("https://accounts.google.com"),
  // Safe by default: only `npm run dev` and the test suites say otherwise.
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  /** The proxy's addresses (comma-separated, CIDR allowed) or how many proxies are in front. */
  TRUST_PROXY: z
    .string()
    .regex(/^(\d+|[0-9a-f.:/]+(\s*,\s*[0-9a-f.:/]+)*)$/i, "must be a hop count or proxy addresses")
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Server processes sharing the port: a number, or `auto` for one per core. */
  WORKERS: z
    .union([z.literal("auto"), z.coerce.number().int().min(1).max(256)], {
      error: "must be a whole number from 1 to 256, or auto",
    })
    .default(1),
  /** The bearer token that GET /metrics asks for; unset, the path is not served. */
  METRICS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
  /** A port on 127.0.0.1 that serves GET /metrics without a token. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
});

export interface Config {
  port: number;
  host: string;
  /** `postgres://…`, `pglite:memory` or `pglite:<dir>`. */
  databaseUrl: string;
  appOrigin: string;
  appSecret: string | undefined;
  seed: "demo" | "none" | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  contactTo: string | undefined;
  google: { clientId: string; clientSecret: string; issuer: string } | undefined;
  production: boolean;
  /**
   * Fastify's `trustProxy`: false (the socket's address is the client's), the proxies' addresses,
   * or, for a hop count, which hops to trust.
   */
  trustProxy: false | string | ((address: string, hop: number) => boolean);
  logLevel: string;
  /** Server processes on one port (PostgreSQL only when more than one). */
  workers: number;
  /** The bearer token of GET /metrics on the app's port; unset, it is not served there. */
  metricsToken: string | undefined;
  /** A loopback port that serves the metrics to whoever reaches it (a scraper on the host). */
  metricsPort: number | undefined;
}

export class ConfigError extends Error {}

function trustProxy(value: string | undefined): Config["trustProxy"] {
  if (!value) return false;
  if (!/^\d+$/.test(value)) return value;
  const hops = Number(value);
  return (_address, hop) => hop < hops;
}

/** Parses the environment; an invalid value throws one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const parsed = schema.safeParse(clean);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid ${String(issue?.path[0])}: ${issue?.message}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production";
  const databaseUrl = e.DATABASE_URL ?? "pglite:./data/pglite";
  if (production && databaseUrl.startsWith("postgres") && !e.APP_SECRET) {
    throw new ConfigError("Invalid APP_SECRET: required with PostgreSQL in production");
  }
  const workers = e.WORKERS === "auto" ? availableParallelism() : e.WORKERS;
  if (workers > 1 && !databaseUrl.startsWith("postgres")) {
    throw new ConfigError(
      `Invalid WORKERS: ${workers} server processes need PostgreSQL (DATABASE_URL=postgres://…); the embedded database belongs to one process`,
    );
  }
  if (e.METRICS_PORT === e.PORT) {
    throw new ConfigError("Invalid METRICS_PORT: must differ from PORT");
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl,
    appOrigin: (e.APP_ORIGIN ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    appSecret: e.APP_SECRET,
    seed: e.SEED,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    contactTo: e.CONTACT_TO,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? {
            clientId: e.GOOGLE_CLIENT_ID,
            clientSecret: e.GOOGLE_CLIENT_SECRET,
            issuer: e.GOOGLE_ISSUER,
          }
        : undefined,
    production,
    trustProxy: trustProxy(e.TRUST_PROXY),
    logLevel: e.LOG_LEVEL,
    workers,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
  };
}
