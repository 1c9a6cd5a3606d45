// The check that a response without an account comes from a person at a browser: a small proof of
// work (ALTCHA) made from a challenge the server signed, a field people never see (a honeypot),
// and how long the form was open. Members are never asked for it.
import { z } from "zod";
import { limits } from "./limits.ts";

/** A challenge as `GET /api/challenge` issues it (ALTCHA's format, signed by the server). */
export const challengeSchema = z.object({
  parameters: z.object({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number().int(),
    keyLength: z.number().int(),
    keyPrefix: z.string(),
    /** The signature of the key the solution derives: the server checks it without deriving. */
    keySignature: z.string(),
    /** When it stops being accepted, in seconds since 1970. */
    expiresAt: z.number().int(),
  }),
  signature: z.string(),
});
export type Challenge = z.infer<typeof challengeSchema>;

/** What an anonymous response carries besides itself; a member's needs none of it. */
export const personCheckFields = {
  /** ALTCHA's payload: the challenge and its solution, JSON in base64. */
  altcha: z.string().max(limits.personCheckMax).optional(),
  /** The field people never see nor fill. */
  website: z.string().max(limits.personCheckMax).optional(),
  /** How long the form was open before it was sent, in milliseconds. */
  typingMs: z.number().int().min(0).max(limits.typingMsMax).optional(),
};

export const personCheckMessages = {
  failed: "We couldn't confirm that you're a person. Please try again.",
  expired: "The check that you're a person expired. Please send your response again.",
  reused: "The check that you're a person was already used. Please send your response again.",
} as const;
