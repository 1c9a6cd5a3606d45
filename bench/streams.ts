// Opens many event streams on a Prism server, as that many open pages would, in a process of its
// own (so that its sockets and memory are not the server's): `tsx bench/streams.ts <origin> <n>`.
// Prints `{"open": n, "clients": ["address:port", …]}` once every stream is connected (each
// stream's own end of its connection); then, for each heart.changed event, once every stream has
// it, `{"event": k, "arrivals": [ms, …]}` (the moment each stream read it, on the machine's clock,
// in the streams' order); ends when stdin closes.
//
// A server takes at most 50 streams from one address (`maxPerAddress`), so each 50 streams
// connect from another loopback address (127.1.0.1, 127.1.0.2, …: Linux answers all of
// 127.0.0.0/8 on its loopback), as that many browsers behind as many addresses would.
//
// It shares the machine with the server it measures, so it does as little as it can: plain TCP
// sockets that read into one buffer (`onread`: no allocation and no stream machinery per read), a
// hand-written request, and no parsing beyond finding the event's name in the bytes.
import { connect, type Socket } from "node:net";

const [origin, countText] = process.argv.slice(2);
const count = Number(countText);
if (!origin || !Number.isInteger(count) || count < 1) {
  console.error("usage: streams.ts <origin> <count>");
  process.exit(2);
}
const { hostname, port } = new URL(origin);
const request = Buffer.from(
  `GET /api/events HTTP/1.1\r\nhost: ${hostname}:${port}\r\naccept: text/event-stream\r\n\r\n`,
);
const CONNECTED = Buffer.from(": connected\n\n");
const HEART = Buffer.from("event: heart.changed\n");
/** Bytes kept from the end of one read for a marker split across two. */
const KEEP = Math.max(CONNECTED.length, HEART.length) - 1;

/** Streams connected from one source address: the server's per-address cap. */
const PER_ADDRESS = 50;
/** The loopback address that stream `index` connects from. */
function sourceAddress(index: number): string {
  const group = Math.floor(index / PER_ADDRESS);
  return `127.1.${Math.floor(group / 254)}.${1 + (group % 254)}`;
}

const now = () => performance.timeOrigin + performance.now();
/** Per event number: the moment each stream read it, by stream, and how many have. */
const arrivals: { at: number[]; read: number }[] = [];
const sockets: Socket[] = [];
let connected = 0;
/** What every socket reads into; each read is looked at before the next one overwrites it. */
const readBuffer = Buffer.alloc(64 * 1024);

/** How many times `marker` occurs in `bytes` (which starts with the previous read's tail). */
function occurrences(bytes: Buffer, marker: Buffer): number {
  let found = 0;
  for (let at = bytes.indexOf(marker); at !== -1; at = bytes.indexOf(marker, at + marker.length)) {
    found += 1;
  }
  return found;
}

function open(index: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let events = 0;
    let answered = false;
    let ready = false;
    let tail = Buffer.alloc(0);
    const read = (chunk: Buffer) => {
      const bytes = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
      tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - KEEP)));
      if (!answered) {
        answered = true;
        if (!bytes.subarray(0, 12).toString().startsWith("HTTP/1.1 200")) {
          reject(new Error(`stream ${index}: ${bytes.subarray(0, 40).toString()}`));
          return;
        }
      }
      if (!ready) {
        if (occurrences(bytes, CONNECTED) === 0) return;
        ready = true;
        connected += 1;
        resolve();
      }
      const hearts = occurrences(bytes, HEART);
      if (hearts === 0) return;
      const at = now();
      for (let heart = 0; heart < hearts; heart++) {
        const event = arrivals[events] ?? { at: new Array<number>(count).fill(0), read: 0 };
        arrivals[events] = event;
        event.at[index] = at;
        event.read += 1;
        events += 1;
        if (event.read === count) {
          process.stdout.write(`${JSON.stringify({ event: events, arrivals: event.at })}\n`);
        }
      }
    };
    const socket = connect(
      {
        port: Number(port),
        host: hostname,
        localAddress: sourceAddress(index),
        onread: {
          buffer: readBuffer,
          callback: (bytes: number) => {
            read(readBuffer.subarray(0, bytes));
            return true;
          },
        },
      },
      () => socket.write(request),
    );
    sockets[index] = socket;
    socket.on("error", reject);
  });
}

async function main() {
  // In batches, so the server's accept queue is not flooded.
  for (let from = 0; from < count; from += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, count - from) }, (_, i) => open(from + i)),
    );
  }
  const clients = sockets.map((socket) => `${socket.localAddress}:${socket.localPort}`);
  process.stdout.write(`${JSON.stringify({ open: connected, clients })}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => {
    for (const socket of sockets) socket.destroy();
    process.exit(0);
  });
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
