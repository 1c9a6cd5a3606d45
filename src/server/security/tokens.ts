// Secret tokens handed to a browser or a mailbox (sessions, reset links, a response's status link):
// only their SHA-256 is stored.
import { createHash, randomBytes } from "node:crypto";

export const newToken = (bytes = 32) => randomBytes(bytes).toString("base64url");

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
