// A port for a server a test or bench starts as its own process: free on the loopback address
// when asked (the operating system's choice, let go at once).
import { createServer } from "node:net";

/** A port nobody listens on now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
