// Password hashing: argon2id with the library's defaults (19 MiB, t=2), OWASP's recommended minimum.
import { hash, verify } from "@node-rs/argon2";

export const hashPassword = (password: string) => hash(password);

// A hash of a random string, checked when there is no stored hash so that both paths cost the same.
const dummyHash = hash("prism-timing-equaliser");

/** True when `password` matches the stored hash; false, after the same work, when there is none. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    await verify(await dummyHash, password);
    return false;
  }
  return verify(stored, password);
}
