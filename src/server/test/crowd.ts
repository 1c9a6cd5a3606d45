// A crowd of the fediverse, for a test and the bench: a plain HTTP server on a local port serving
// `size` actors (`reader0` …), each with its own keyId (one RSA key pair between them, as
// generating fifty would cost seconds for nothing: Prism still fetches and checks each actor's
// key), which sends replies to a prism as Misskey sends activities (signed-request.ts): plain
// JSON with a draft-cavage HTTP signature, no Linked Data signature.
import { createServer, type Server } from "node:http";
import { genRsaKeyPair, importPrivateKey } from "@misskey-dev/node-http-message-signatures";
import { freePort } from "./ports.ts";
import { postSigned } from "./signed-request.ts";

export interface Crowd {
  origin: string;
  /**
   * Sends `count` replies to `article` (a prism's Article) into `inbox`, numbered from `first`
   * (0 unless told), reply `i` written by actor `i % size`, `concurrency` at a time; resolves once
   * Prism has answered every one, with the statuses it answered.
   */
  reply(options: {
    inbox: URL;
    article: URL;
    count: number;
    first?: number;
    concurrency?: number;
  }): Promise<number[]>;
  /** How many times an actor of the crowd has been fetched so far. */
  actorFetches(): number;
  close(): Promise<void>;
}

/** What the crowd's replies say, in turn, so that they read as replies and not as one repeated. */
const SAYINGS = [
  "I keep my mornings for writing too, and it changed how my week feels.",
  "Do you find the afternoons ever spill over into the evening?",
  "We tried meeting-free Wednesdays at work; it lasted a month, sadly.",
  "This is close to how my team works, though we batch mail twice a day.",
  "Thank you for writing this down, it helps to see it laid out.",
  "How do you handle the days when the deep work simply does not come?",
  "I would add a walk after lunch; it resets the afternoon for me.",
  "Curious whether this survives a busy season, would love a follow-up.",
];

export async function startCrowd(size: number): Promise<Crowd> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const keys = await genRsaKeyPair(2048);
  // Imported once, as a server signs with the key it holds: the crowd shares the event loop of the
  // Prism it sends to (the bench's), where importing it again for each reply would be counted.
  const privateKey = await importPrivateKey(keys.privateKey, ["sign"]);
  const actorOf = (n: number) => `${origin}/users/reader${n}`;
  let actorFetches = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    const match = /^\/users\/reader(\d+)$/.exec(request.url ?? "");
    const n = Number(match?.[1] ?? -1);
    if (request.method !== "GET" || !match || n >= size) {
      response.writeHead(404).end();
      return;
    }
    const actor = actorOf(n);
    actorFetches += 1;
    response.writeHead(200, { "content-type": "application/activity+json" }).end(
      JSON.stringify({
        "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
        id: actor,
        type: "Person",
        preferredUsername: `reader${n}`,
        name: `Reader ${n}`,
        inbox: `${actor}/inbox`,
        publicKey: { id: `${actor}#main-key`, owner: actor, publicKeyPem: keys.publicKey },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));

  const send = async (i: number, inbox: URL, article: URL) => {
    const actor = actorOf(i % size);
    const note = `${origin}/notes/${i}`;
    const body = JSON.stringify({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${note}/create`,
      type: "Create",
      actor,
      to: ["https://www.w3.org/ns/activitystreams#Public"],
      object: {
        id: note,
        type: "Note",
        attributedTo: actor,
        inReplyTo: article.href,
        content: `<p>${SAYINGS[i % SAYINGS.length]} (${i})</p>`,
        to: ["https://www.w3.org/ns/activitystreams#Public"],
      },
    });
    const answer = await postSigned(inbox, body, { keyId: `${actor}#main-key`, privateKey });
    await answer.arrayBuffer();
    return answer.status;
  };

  return {
    origin,
    async reply({ inbox, article, count, first = 0, concurrency = 10 }) {
      const statuses: number[] = [];
      let next = 0;
      const worker = async () => {
        while (next < count) {
          const i = next++;
          statuses[i] = await send(first + i, inbox, article);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      return statuses;
    },
    actorFetches: () => actorFetches,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
