// An event stream (GET /api/events) opened against a listening Prism, read block by block.
import { request as httpRequest, type IncomingMessage } from "node:http";

export interface Block {
  event?: string;
  data?: string;
  retry?: number;
  comments: string[];
}

function parseBlock(text: string): Block {
  const block: Block = { comments: [] };
  for (const line of text.split("\n")) {
    if (line.startsWith(":")) block.comments.push(line.slice(1).trim());
    else if (line.startsWith("event: ")) block.event = line.slice(7);
    else if (line.startsWith("data: ")) block.data = line.slice(6);
    else if (line.startsWith("retry: ")) block.retry = Number(line.slice(7));
  }
  return block;
}

export const isEvent =
  (type: string, match: Record<string, unknown> = {}) =>
  (block: Block) =>
    block.event === type &&
    Object.entries(match).every(([key, value]) => JSON.parse(block.data ?? "{}")[key] === value);

/**
 * An open event stream (`since`: the stamp of the changes the client has seen), every block it
 * received, and a way to wait for one. It is read with
 * node:http on a socket of its own: aborting a streaming fetch makes undici open a spare
 * connection that never sends a request, which then holds up server.close().
 */
export async function openStream(
  origin: string,
  headers: Record<string, string> = {},
  since?: string,
) {
  const path =
    since === undefined ? "/api/events" : `/api/events?since=${encodeURIComponent(since)}`;
  const request = httpRequest(`${origin}${path}`, { headers, agent: false });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request.once("response", resolve);
    request.once("error", reject);
    request.end();
  });
  response.setEncoding("utf8");
  const blocks: Block[] = [];
  let text = "";
  let buffer = "";
  let ended = false;
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const waker of wakers) waker();
    wakers.clear();
  };
  response.on("data", (chunk: string) => {
    text += chunk;
    buffer += chunk;
    for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
      blocks.push(parseBlock(buffer.slice(0, at)));
      buffer = buffer.slice(at + 2);
    }
    wake();
  });
  const done = new Promise<void>((resolve) => {
    const finish = () => {
      ended = true;
      wake();
      resolve();
    };
    response.once("end", finish);
    response.once("close", finish);
    response.once("error", finish);
  });

  /** Takes the first received block that matches, waiting up to `timeoutMs` for it. */
  async function waitFor(match: (block: Block) => boolean, timeoutMs = 2000): Promise<Block> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = blocks.findIndex(match);
      if (index >= 0) return blocks.splice(index, 1)[0] as Block;
      if (ended) throw new Error(`stream ended; received: ${JSON.stringify(text)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; received: ${JSON.stringify(text)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wakers.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  return {
    status: response.statusCode,
    header: (name: string) => response.headers[name],
    blocks,
    text: () => text,
    waitFor,
    connected: () => waitFor((block) => block.comments.includes("connected")),
    done,
    isEnded: () => ended,
    /** True when the server ended the response properly (not a dropped connection). */
    complete: () => response.complete,
    /** Hangs up, as a closed tab does. */
    close: async () => {
      request.destroy();
      await done;
    },
  };
}
