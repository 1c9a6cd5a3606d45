// The check that a response without an account comes from a person at a browser (see
// contract/person-check.ts): the challenge issued, what the response carries checked, and its
// proof spent once, for every instance alike.
import { createHmac } from "node:crypto";
import { createChallenge, randomInt, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { lt, sql } from "drizzle-orm";
import { z } from "zod";
import { limits } from "../../../contract/limits.ts";
import {
  type Challenge,
  challengeSchema,
  personCheckMessages,
} from "../../../contract/person-check.ts";
import type { Executor } from "../../db/client.ts";
import { type ResponseSignals, spentProofs } from "../../db/schema.ts";
import { badRequest } from "../../http-error.ts";

/** How long a challenge is accepted; the dialog asks for a new one when it has expired. */
const LIFETIME_SECONDS = 5 * 60;

/**
 * The work: PBKDF2 (the browser's own Web Crypto) of `COST` iterations per try, and a counter the
 * browser must reach, drawn between `COUNTER_MIN` and `COUNTER_MAX` per challenge. The README's
 * Limits table says how long that takes.
 */
const ALGORITHM = "PBKDF2/SHA-256";
const COST = 500;
const COUNTER_MIN = 200;
const COUNTER_MAX = 800;

/** Keys of their own for signing challenges and the keys they derive, from the app's secret. */
function keysOf(secret: string) {
  const key = (use: string) =>
    createHmac("sha256", secret).update(`person-check:${use}`).digest("hex");
  return { hmacSignatureSecret: key("challenge"), hmacKeySignatureSecret: key("derived-key") };
}

/** A new challenge, signed: no state is kept until a response spends its proof. */
export async function issueChallenge(secret: string): Promise<Challenge> {
  return challengeSchema.parse(
    await createChallenge({
      algorithm: ALGORITHM,
      cost: COST,
      counter: randomInt(COUNTER_MAX, COUNTER_MIN),
      deriveKey,
      expiresAt: Math.floor(Date.now() / 1000) + LIFETIME_SECONDS,
      ...keysOf(secret),
    }),
  );
}

/** ALTCHA's payload: the challenge as issued, and the solution the browser found. */
const payloadSchema = z.object({
  challenge: challengeSchema,
  solution: z.object({ counter: z.number(), derivedKey: z.string() }),
});

function parsePayload(altcha: string | undefined) {
  if (!altcha) return undefined;
  try {
    return payloadSchema.safeParse(JSON.parse(Buffer.from(altcha, "base64").toString("utf8"))).data;
  } catch {
    return undefined;
  }
}

/** A proof that passed, to be spent with the response it came with. */
export interface Proof {
  nonce: string;
  expiresAt: Date;
  signals: ResponseSignals;
}

const refuse = (message: string) => badRequest(message, { altcha: message });

/**
 * Checks what an anonymous response carries: the honeypot empty, the form open long enough, and
 * a solved challenge this server signed that has not expired. Anything else is refused on `altcha`
 * (a script learns nothing of which part failed).
 */
export async function checkPerson(
  secret: string,
  fields: { altcha?: string; website?: string; typingMs?: number },
): Promise<Proof> {
  const { typingMs } = fields;
  if (fields.website || typingMs === undefined || typingMs < limits.typingFloorMs) {
    throw refuse(personCheckMessages.failed);
  }
  const payload = parsePayload(fields.altcha);
  if (!payload) throw refuse(personCheckMessages.failed);
  const result = await verifySolution({ ...payload, deriveKey, ...keysOf(secret) });
  if (result.expired) throw refuse(personCheckMessages.expired);
  if (!result.verified) throw refuse(personCheckMessages.failed);
  const { nonce, expiresAt } = payload.challenge.parameters;
  const issuedAt = (expiresAt - LIFETIME_SECONDS) * 1000;
  return {
    nonce,
    expiresAt: new Date(expiresAt * 1000),
    signals: { typingMs, proofAgeMs: Date.now() - issuedAt },
  };
}

/** Spends the proof inside the response's transaction: a second use is refused. */
export async function spendProof(tx: Executor, proof: Proof): Promise<void> {
  const [spent] = await tx
    .insert(spentProofs)
    .values({ nonce: proof.nonce, expiresAt: proof.expiresAt })
    .onConflictDoNothing()
    .returning({ nonce: spentProofs.nonce });
  if (!spent) throw refuse(personCheckMessages.reused);
}

/**
 * Forgets proofs whose challenge has expired (refused as expired from then on), an hour later, so
 * that a server clock behind the database's never finds one gone before it has expired.
 */
export async function deleteExpiredProofs(db: Executor): Promise<number> {
  const deleted = await db
    .delete(spentProofs)
    .where(lt(spentProofs.expiresAt, sql`now() - interval '1 hour'`))
    .returning({ nonce: spentProofs.nonce });
  return deleted.length;
}
