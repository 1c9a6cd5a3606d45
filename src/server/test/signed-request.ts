// A signed activity, for tests, as Misskey and NodeBB send one: plain JSON posted to an inbox with
// a SHA-256 digest and a draft-cavage HTTP signature by their signer
// (`@misskey-dev/node-http-message-signatures`), over (request-target), host, date and digest;
// or signed the same way by Debian's python3-httpsig.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  genDigestHeaderBothRFC3230AndRFC9530,
  type PrivateKey,
  signAsDraftToRequest,
} from "@misskey-dev/node-http-message-signatures";

/** The key an activity is signed with: its keyId (where its public half is said to be), PEM. */
export interface SigningKey {
  keyId: string;
  privateKeyPem: string;
}

/**
 * Posts `body` to `inbox`, signed with `key` (its PEM, or the key already imported: a sender of
 * many imports it once); resolves with Prism's answer.
 */
export async function postSigned(inbox: URL, body: string, key: PrivateKey): Promise<Response> {
  const request = {
    url: inbox.href,
    method: "POST",
    headers: {
      host: inbox.host,
      date: new Date().toUTCString(),
      "content-type": "application/activity+json",
    } as Record<string, string>,
  };
  await genDigestHeaderBothRFC3230AndRFC9530(request, body);
  await signAsDraftToRequest(request, key, ["(request-target)", "host", "date", "digest"]);
  return fetch(inbox, { method: "POST", headers: request.headers, body });
}

/** Runs a Python script (Debian's python3 and its libraries), `input` its stdin; its stdout. */
export function python(script: string, input: string, args: string[] = []): string {
  const run = spawnSync("/usr/bin/python3", ["-c", script, ...args], { input, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`python failed: ${run.stderr}`);
  return run.stdout;
}

/** Signs a POST's headers with httpsig: stdin is {keyId, pem, host, path, headers}. */
const HTTPSIG_SIGN = `
import json, sys
from httpsig.sign import HeaderSigner
r = json.load(sys.stdin)
signer = HeaderSigner(r["keyId"], r["pem"], algorithm="rsa-sha256",
  headers=["(request-target)", "host", "date", "digest"], sign_header="signature")
print(json.dumps(signer.sign(r["headers"], host=r["host"], method="POST", path=r["path"])))
`;

/** The headers of a POST of `body` to `inbox`, signed with `key` by python3-httpsig. */
export function signedByHttpsig(inbox: URL, body: string, key: SigningKey): Record<string, string> {
  const headers = {
    host: inbox.host,
    date: new Date().toUTCString(),
    digest: `SHA-256=${createHash("sha256").update(body).digest("base64")}`,
    "content-type": "application/activity+json",
  };
  const request = {
    keyId: key.keyId,
    pem: key.privateKeyPem,
    host: inbox.host,
    path: inbox.pathname,
    headers,
  };
  return JSON.parse(python(HTTPSIG_SIGN, JSON.stringify(request))) as Record<string, string>;
}
