// Prism's HTTP signatures, as implementations Prism did not write check them. carol's server
// here is a plain HTTP server (not Fedify): her actor and key, and an inbox that keeps every
// request as it arrived and, as a server that reads only draft-cavage signatures would, answers an
// RFC 9421 one 401. Her Follow, signed by Misskey's signer (`@misskey-dev/node-http-message-
// signatures`, which Misskey and NodeBB ship), is accepted; Prism's Accept comes first signed as
// RFC 9421, then (after the 401) as draft-cavage: Misskey's library verifies both, and Debian's
// python3-httpsig the draft-cavage one, with the key Prism's actor publishes. Her reply to a
// prism, signed by python3-httpsig, arrives as a pending response from the fediverse.
import { createServer, type Server } from "node:http";
import {
  genRsaKeyPair,
  type ParsedSignature,
  parseRequestSignature,
  RFC9421SignatureBaseFactory,
  verifyDigestHeader,
  verifyDraftSignature,
} from "@misskey-dev/node-http-message-signatures";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { annotations, type PrismRow, type UserRow } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { setupFediverse } from "../../test/fediverse.ts";
import { freePort } from "../../test/ports.ts";
import { postSigned, python, signedByHttpsig } from "../../test/signed-request.ts";

/** A request carol's inbox received, as it arrived. */
interface Arrived {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

const t = setupFediverse();
let ada: UserRow;
let essay: PrismRow;
let carol: { origin: string; actor: string; keys: { publicKey: string; privateKey: string } };
let server: Server;
const arrived: Arrived[] = [];

/** carol's server: her actor, and her inbox, which keeps what arrives. */
async function startCarol() {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const actor = `${origin}/users/carol`;
  const keys = await genRsaKeyPair(2048);
  const person = JSON.stringify({
    "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
    id: actor,
    type: "Person",
    preferredUsername: "carol",
    name: "Carol",
    inbox: `${actor}/inbox`,
    publicKey: { id: `${actor}#main-key`, owner: actor, publicKeyPem: keys.publicKey },
  });
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method === "GET" && request.url === "/users/carol") {
        response.writeHead(200, { "content-type": "application/activity+json" }).end(person);
        return;
      }
      if (request.method !== "POST" || request.url !== "/users/carol/inbox") {
        response.writeHead(404).end();
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
      );
      arrived.push({
        url: `${origin}${request.url}`,
        method: "POST",
        headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      response.writeHead(headers["signature-input"] ? 401 : 202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { origin, actor, keys };
}

beforeAll(async () => {
  carol = await startCarol();
  ada = await buildUser(t.database, { username: "ada-signatures", federated: true });
  essay = await buildPrism(t.database, {
    userId: ada.id,
    title: "How I work",
    content: "<p>Mornings are for deep work.</p>",
  });
});
afterAll(() => {
  server?.closeAllConnections();
  server?.close();
});

/** Verifies a POST's signature with httpsig: stdin is {pem, host, path, headers}. */
const HTTPSIG_VERIFY = `
import json, sys
from httpsig.verify import HeaderVerifier
r = json.load(sys.stdin)
verifier = HeaderVerifier(r["headers"], r["pem"], required_headers=["(request-target)", "host", "date", "digest"],
  method="POST", path=r["path"], host=r["host"], sign_header="signature")
print(json.dumps(verifier.verify()))
`;

const inboxOfAda = () => new URL(`${t.prism.origin}/ap/actors/${ada.id}/inbox`);

/** The public key Prism's actor for Ada publishes, as PEM. */
async function adasKey(): Promise<{ id: string; pem: string }> {
  const response = await fetch(`${t.prism.origin}/ap/actors/${ada.id}`, {
    headers: { accept: "application/activity+json" },
  });
  const actor = (await response.json()) as { publicKey: { id: string; publicKeyPem: string } };
  return { id: actor.publicKey.id, pem: actor.publicKey.publicKeyPem };
}

describe("Prism's signatures, as other implementations check them", () => {
  it("accepts carol's Follow signed by Misskey's signer, and its Accept verifies in Misskey's library and python3-httpsig", {
    timeout: 40_000,
  }, async () => {
    const inbox = inboxOfAda();
    const body = JSON.stringify({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${carol.origin}/follows/1`,
      type: "Follow",
      actor: carol.actor,
      object: `${t.prism.origin}/ap/actors/${ada.id}`,
    });
    const answer = await postSigned(inbox, body, {
      keyId: `${carol.actor}#main-key`,
      privateKeyPem: carol.keys.privateKey,
    });
    expect(answer.status).toBe(202);

    // Prism's Accept: first as RFC 9421 (answered 401), then as draft-cavage.
    await expect.poll(() => arrived.length, { timeout: 30_000 }).toBe(2);
    const [rfc9421, draft] = arrived as [Arrived, Arrived];
    expect(JSON.parse(draft.body)).toMatchObject({ type: "Accept" });
    expect(draft.body).toBe(rfc9421.body);
    const key = await adasKey();

    const draftParsed = parseRequestSignature(draft) as ParsedSignature;
    expect(draftParsed.version).toBe("draft");
    if (draftParsed.version !== "draft") return;
    expect(draftParsed.value.keyId).toBe(key.id);
    expect(await verifyDraftSignature(draftParsed.value, key.pem)).toBe(true);
    expect(await verifyDigestHeader(draft, draft.body)).toBe(true);

    // RFC 9421: Misskey's library writes the signature base (what was signed) from the request as
    // it arrived; its version 0.0.10 verifies only draft signatures, so the RSA check is WebCrypto's.
    const input = rfc9421.headers["signature-input"] ?? "";
    const label = /^([^=]+)=/.exec(input)?.[1] ?? "";
    expect(/keyid="([^"]+)"/.exec(input)?.[1]).toBe(key.id);
    const base = new RFC9421SignatureBaseFactory(rfc9421).generate(label);
    expect(base).toContain('"@method": POST');
    expect(base).toContain('"content-digest": sha-256=');
    expect(await verifyDigestHeader(rfc9421, rfc9421.body)).toBe(true);
    const signature = new RegExp(`${label}=:([^:]+):`).exec(rfc9421.headers.signature ?? "")?.[1];
    const publicKey = await crypto.subtle.importKey(
      "spki",
      Buffer.from(key.pem.replace(/-----[^-]+-----|\s/g, ""), "base64"),
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
      false,
      ["verify"],
    );
    const verified = (signed: string) =>
      crypto.subtle.verify(
        "RSASSA-PKCS1-v1_5",
        publicKey,
        Buffer.from(signature ?? "", "base64"),
        new TextEncoder().encode(signed),
      );
    expect(await verified(base)).toBe(true);
    expect(await verified(base.replace("POST", "PUT"))).toBe(false);
    // A tampered body does not verify.
    const tampered = { ...draft, body: draft.body.replace("Accept", "Reject") };
    expect(await verifyDigestHeader(tampered, tampered.body)).toBe(false);

    const path = new URL(draft.url).pathname;
    const verify = (headers: Record<string, string>) =>
      JSON.parse(
        python(
          HTTPSIG_VERIFY,
          JSON.stringify({ pem: key.pem, host: draft.headers.host, path, headers }),
        ),
      ) as boolean;
    expect(verify(draft.headers)).toBe(true);
    expect(verify({ ...draft.headers, date: new Date(0).toUTCString() })).toBe(false);
  });

  it("accepts carol's reply signed by python3-httpsig as a pending response", {
    timeout: 40_000,
  }, async () => {
    const inbox = inboxOfAda();
    const note = `${carol.origin}/notes/1`;
    const body = JSON.stringify({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${note}/create`,
      type: "Create",
      actor: carol.actor,
      object: {
        id: note,
        type: "Note",
        attributedTo: carol.actor,
        inReplyTo: `${t.prism.origin}/ap/prisms/${essay.id}`,
        content: "<p>Mine are for walking the dog.</p>",
        url: `${carol.origin}/@carol/1`,
      },
    });
    const signed = signedByHttpsig(inbox, body, {
      keyId: `${carol.actor}#main-key`,
      privateKeyPem: carol.keys.privateKey,
    });
    const answer = await fetch(inbox, { method: "POST", headers: signed, body });
    expect(answer.status).toBe(202);
    const replies = () =>
      t.database.db.select().from(annotations).where(eq(annotations.prismId, essay.id));
    await expect.poll(async () => (await replies()).length, { timeout: 30_000 }).toBe(1);
    const [reply] = await replies();
    expect(reply).toMatchObject({
      status: "pending",
      source: "fediverse",
      remoteActorId: carol.actor,
      remoteHandle: `@carol@${new URL(carol.origin).host}`,
      remoteNoteId: note,
      remoteNoteUrl: `${carol.origin}/@carol/1`,
    });

    // The same reply with its body changed after signing is refused.
    const forged = body.replace("walking the dog", "sleeping in");
    const refused = await fetch(inbox, { method: "POST", headers: signed, body: forged });
    expect(refused.status).toBe(401);
  });
});
