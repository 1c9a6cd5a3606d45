// A round-robin proxy in front of instances of Prism, as a load balancer in front of several
// machines: each request goes to the next instance in turn, with the X-Forwarded-For, -Host,
// -Proto and -Port headers that Prism reads when it trusts the proxy (TRUST_PROXY), and each
// answer, an event stream's too, passes through as it comes. The integration suite puts it in
// front of two instances on one PostgreSQL, and so does the end-to-end suite's "pair" project.
import { once } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createProxyServer } from "http-proxy-3";

export interface RoundRobin {
  origin: string;
  /** The instance each request was sent to, in the order the requests came. */
  sentTo: string[];
  close(): Promise<void>;
}

/** Listens on `port` of 127.0.0.1 (0: any free one) and sends requests to `origins` in turn. */
export async function startRoundRobin(origins: string[], port = 0): Promise<RoundRobin> {
  // Without an agent, each request goes on a connection of its own (Connection: close), so none
  // is reused just as its instance closes it.
  const proxy = createProxyServer({ xfwd: true });
  // An instance that cannot be reached is answered 502, as a load balancer answers it.
  proxy.on("error", (_error, _request, response) => {
    const answer = response as ServerResponse;
    if (answer.headersSent) answer.destroy();
    else answer.writeHead(502).end();
  });
  const sentTo: string[] = [];
  const server = createServer((request, response) => {
    const target = origins[sentTo.length % origins.length] as string;
    sentTo.push(target);
    proxy.web(request, response, { target });
  });
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  const { port: listening } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${listening}`,
    sentTo,
    async close() {
      const closed = once(server, "close");
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}
