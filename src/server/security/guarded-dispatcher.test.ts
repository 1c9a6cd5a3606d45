// The global fetch, guarded as Prism's process guards it: a server Prism may reach that redirects
// to a loopback address it may not is followed without the guard, and refused with it; the guard
// checks each address a name resolves to as well.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardGlobalFetch } from "./guarded-dispatcher.ts";
import { isPrivateAddress } from "./outgoing-fetch.ts";

let target: Server;
let redirecting: Server;
let url: string;

const listen = (server: Server, host: string) =>
  new Promise<number>((resolve) =>
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port)),
  );

beforeAll(async () => {
  target = createServer((_request, response) => response.end("reached"));
  const port = await listen(target, "127.0.0.2");
  redirecting = createServer((_request, response) => {
    response.writeHead(302, { location: `http://127.0.0.2:${port}/` }).end();
  });
  url = `http://127.0.0.1:${await listen(redirecting, "127.0.0.1")}/`;
});
afterAll(() => {
  target.closeAllConnections();
  redirecting.closeAllConnections();
  target.close();
  redirecting.close();
});

/** Prism's rules, but for the redirecting server's own address (the tests' stand-in for a peer). */
const refuses = (address: string) => address !== "127.0.0.1" && isPrivateAddress(address);

describe("the guarded global fetch", () => {
  it("follows a redirect to a loopback address without the guard", async () => {
    expect(await (await fetch(url)).text()).toBe("reached");
  });

  it("refuses a redirect to a loopback address with the guard", async () => {
    const restore = guardGlobalFetch(refuses);
    try {
      await expect(fetch(url)).rejects.toMatchObject({
        cause: { message: "127.0.0.2 is not an address Prism fetches" },
      });
      // The server it may reach is still reached.
      expect((await fetch(url, { redirect: "manual" })).status).toBe(302);
    } finally {
      restore();
    }
  });

  it("refuses a name that resolves to a loopback address", async () => {
    const restore = guardGlobalFetch(isPrivateAddress);
    try {
      const port = (redirecting.address() as AddressInfo).port;
      await expect(fetch(`http://localhost:${port}/`)).rejects.toMatchObject({
        cause: { message: "localhost is not an address Prism fetches" },
      });
    } finally {
      restore();
    }
  });
});
