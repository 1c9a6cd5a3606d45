// What Prism's own `fetch` connects to. Fedify fetches actors and keys and delivers to inboxes
// with the global `fetch`, to addresses other servers name: it checks them before it asks, but a
// name may resolve elsewhere when the connection is made (DNS rebinding), and a redirect may point
// anywhere. The guarded dispatcher checks every connection as it is made, the address it goes to
// (each address a name resolves to, or the address itself), with Prism's address rules
// (`addressPolicy`), so that in production nothing reaches Prism's own network.
import { isIP } from "node:net";
import { Agent, buildConnector, getGlobalDispatcher, setGlobalDispatcher } from "undici";
import { guardedLookup, refused } from "./outgoing-fetch.ts";

/** An undici dispatcher that refuses to connect to any address `refuses` names. */
export function guardedDispatcher(refuses: (address: string) => boolean): Agent {
  const connect = buildConnector({ lookup: guardedLookup(refuses) });
  return new Agent({
    connect: (options, callback) => {
      // An address, unlike a name, is connected to without a lookup: checked here.
      const host = options.hostname.replace(/^\[|\]$/g, "");
      if (isIP(host) !== 0 && refuses(host)) {
        callback(refused(host), null);
        return;
      }
      connect(options, callback);
    },
  });
}

/**
 * Makes the global `fetch` (Fedify's) connect through the guarded dispatcher; returns what puts
 * the one before back.
 */
export function guardGlobalFetch(refuses: (address: string) => boolean): () => void {
  const previous = getGlobalDispatcher();
  setGlobalDispatcher(guardedDispatcher(refuses));
  return () => setGlobalDispatcher(previous);
}
