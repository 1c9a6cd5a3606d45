// Opens many event streams on a Prism server, as that many open pages would, in a process of its
// own (so that its sockets and memory are not the server's): `tsx bench/streams.ts <origin> <n>`.
// Prints `{"open": n}` once every stream is connected; then, for each heart.changed event, once
// every stream has it, `{"event": k, "arrivals": [ms, …]}` (the moment each stream read it, on the
// machine's clock); ends when stdin closes.
import { request } from "node:http";

const [origin, countText] = process.argv.slice(2);
const count = Number(countText);
if (!origin || !Number.isInteger(count) || count < 1) {
  console.error("usage: streams.ts <origin> <count>");
  process.exit(2);
}

const now = () => performance.timeOrigin + performance.now();
/** Per event number: the moment each stream read it. */
const arrivals: number[][] = [];
let connected = 0;

function open(index: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let events = 0;
    let buffer = "";
    const req = request(`${origin}/api/events`, { agent: false }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`stream ${index}: HTTP ${res.statusCode}`));
        return;
      }
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (frame.includes(": connected")) {
            connected += 1;
            resolve();
          } else if (frame.startsWith("event: heart.changed")) {
            const at = now();
            const list = arrivals[events] ?? [];
            arrivals[events] = list;
            list.push(at);
            events += 1;
            if (list.length === count) {
              process.stdout.write(`${JSON.stringify({ event: events, arrivals: list })}\n`);
            }
          }
          end = buffer.indexOf("\n\n");
        }
      });
    });
    req.on("error", reject);
    req.end();
  });
}

async function main() {
  // In batches, so the server's accept queue is not flooded.
  for (let from = 0; from < count; from += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, count - from) }, (_, i) => open(from + i)),
    );
  }
  process.stdout.write(`${JSON.stringify({ open: connected })}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => process.exit(0));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
