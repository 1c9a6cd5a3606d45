// The person check of an anonymous response as a person's browser passes it, for the API tests
// and the end-to-end stories' readers alike (no test runner's import here).
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import type { Challenge } from "../../contract/person-check.ts";

/** How long a test's response form was open: past the floor, as a person's is. */
export const TYPING_MS = 4000;

/**
 * What an anonymous response carries as the dialog sends it: `challenge` solved as ALTCHA's
 * widget solves it (ALTCHA's payload), and how long the form was open.
 */
export async function personCheck(challenge: Challenge) {
  const solution = await solveChallenge({ challenge, deriveKey });
  const altcha = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
  return { altcha, typingMs: TYPING_MS };
}
