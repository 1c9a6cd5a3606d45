// Prism's federation read and signed by libraries Prism did not write: Debian's python3-httpsig
// signs a Follow (draft-cavage HTTP signature, rsa-sha256, with a SHA-256 digest) that Prism's
// inbox accepts, and python3-pyld expands the actor and an Article with the JSON-LD contexts
// bundled in tests/fixtures/jsonld (no network): what they say survives as ActivityStreams,
// security and GoToSocial's interaction policy terms.
import { fileURLToPath } from "node:url";
import { Accept } from "@fedify/fedify/vocab";
import { beforeAll, describe, expect, it } from "vitest";
import type { UserRow } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { setupFediverse } from "../../test/fediverse.ts";
import { python, signedByHttpsig } from "../../test/signed-request.ts";

const t = setupFediverse();
let ada: UserRow;

beforeAll(async () => {
  ada = await buildUser(t.database, {
    username: "ada-interop",
    firstName: "Ada",
    lastName: "Lovelace",
    websiteUrl: "https://ada.example/",
    federated: true,
  });
});

/** Expands a JSON-LD document with PyLD, loading only the bundled contexts. */
const PYLD = `
import json, sys
from pyld import jsonld
contexts = json.load(open(sys.argv[1]))
def load(url, options={}):
  if url not in contexts:
    raise jsonld.JsonLdError("not bundled: " + url, "jsonld.LoadDocumentError", code="loading document failed")
  return {"contentType": "application/ld+json", "contextUrl": None, "documentUrl": url, "document": contexts[url]}
jsonld.set_document_loader(load)
print(json.dumps(jsonld.expand(json.load(sys.stdin))))
`;
const CONTEXTS = fileURLToPath(
  new URL("../../../../tests/fixtures/jsonld/contexts.json", import.meta.url),
);

const AS = "https://www.w3.org/ns/activitystreams#";
/** A node of expanded JSON-LD: each term's values in an array. */
type Node = Record<string, unknown>;
type Expanded = Node[];

/** The first value of `term` in `node`, as a node. */
const first = (node: Node | undefined, term: string) => (node?.[term] as Node[] | undefined)?.[0];

async function expanded(path: string): Promise<Expanded> {
  const response = await fetch(`${t.prism.origin}${path}`, {
    headers: { accept: "application/activity+json" },
  });
  return JSON.parse(python(PYLD, await response.text(), [CONTEXTS])) as Expanded;
}

describe("Prism's federation, as other libraries read it", () => {
  it("accepts a Follow signed by python3-httpsig", { timeout: 30_000 }, async () => {
    const actor = `${t.prism.origin}/ap/actors/${ada.id}`;
    const inbox = new URL(`${actor}/inbox`);
    const body = JSON.stringify({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${t.remote.origin}/follows/httpsig`,
      type: "Follow",
      actor: t.remote.bob.href,
      object: actor,
    });
    const pkcs8 = Buffer.from(await crypto.subtle.exportKey("pkcs8", t.remote.keys.privateKey));
    const pem = `-----BEGIN PRIVATE KEY-----\n${pkcs8
      .toString("base64")
      .match(/.{1,64}/g)
      ?.join("\n")}\n-----END PRIVATE KEY-----\n`;
    const signed = signedByHttpsig(inbox, body, {
      keyId: `${t.remote.bob.href}#main-key`,
      privateKeyPem: pem,
    });
    expect(signed.signature).toMatch(/^keyId="[^"]+",algorithm="rsa-sha256",/);
    const response = await fetch(inbox, { method: "POST", headers: signed, body });
    expect(response.status).toBe(202);
    await expect
      .poll(() => t.remote.received.filter((activity) => activity instanceof Accept).length, {
        timeout: 20_000,
      })
      .toBe(1);
  });

  it("serves an actor python3-pyld expands to a Person with its page, key and rel=me link", async () => {
    const [person] = await expanded(`/ap/actors/${ada.id}`);
    expect(person?.["@type"]).toEqual([`${AS}Person`]);
    expect(person?.[`${AS}url`]).toEqual([{ "@id": `${t.prism.origin}/ada-interop` }]);
    expect(person?.[`${AS}preferredUsername`]).toEqual([{ "@value": "ada-interop" }]);
    expect(person?.["http://www.w3.org/ns/ldp#inbox"]).toEqual([
      { "@id": `${t.prism.origin}/ap/actors/${ada.id}/inbox` },
    ]);
    const key = first(person, "https://w3id.org/security#publicKey");
    const pem = first(key, "https://w3id.org/security#publicKeyPem");
    expect(String(pem?.["@value"])).toMatch(/BEGIN PUBLIC KEY/);
    const link = first(person, `${AS}attachment`);
    expect(link?.["@type"]).toEqual(["http://schema.org#PropertyValue"]);
    expect(JSON.stringify(link?.["http://schema.org#value"])).toContain('rel=\\"me');
  });

  it("serves an Article python3-pyld expands with its title, text, summary, link and reply policy", async () => {
    const written = await buildPrism(t.database, {
      userId: ada.id,
      title: "Notes on the engine",
      content: "<p>The engine <em>weaves</em> algebraic patterns.</p>",
    });
    const [article] = await expanded(`/ap/prisms/${written.id}`);
    expect(article?.["@type"]).toEqual([`${AS}Article`]);
    expect(article?.[`${AS}name`]).toEqual([{ "@value": "Notes on the engine" }]);
    expect(article?.[`${AS}content`]).toEqual([
      { "@value": "<p>The engine <em>weaves</em> algebraic patterns.</p>" },
    ]);
    expect(article?.[`${AS}summary`]).toEqual([
      { "@value": "The engine weaves algebraic patterns." },
    ]);
    expect(article?.[`${AS}url`]).toEqual([
      { "@id": `${t.prism.origin}/ada-interop?prism=${written.id}` },
    ]);
    const policy = JSON.stringify(article?.["https://gotosocial.org/ns#interactionPolicy"]);
    expect(policy).toContain("https://gotosocial.org/ns#canReply");
    expect(policy).toContain("https://gotosocial.org/ns#manualApproval");
  });
});
