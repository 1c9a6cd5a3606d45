// Where Prism lets a client it does not drive itself (Fedify's deliveries) send: in production
// never an address on Prism's own network, named or resolved, nor anything but http(s), nor a
// host that does not resolve; anywhere in development and tests.
import { describe, expect, it } from "vitest";
import { addressPolicy, refusesUrl } from "./outgoing-fetch.ts";

const production = addressPolicy(true);
const local = addressPolicy(false);

describe("refusesUrl", () => {
  it("refuses private, loopback and link-local addresses in production", async () => {
    for (const url of [
      "http://10.0.0.7/inbox",
      "http://127.0.0.1:3000/inbox",
      "http://[::1]/inbox",
      "http://169.254.169.254/latest/meta-data",
      "http://[::ffff:192.168.1.1]/inbox",
      "http://localhost/inbox",
      "https://no-such-host.invalid/inbox",
      "ftp://203.0.113.9/inbox",
    ]) {
      expect(await refusesUrl(new URL(url), production), url).toBe(true);
    }
    expect(await refusesUrl(new URL("https://93.184.215.14/inbox"), production)).toBe(false);
  });

  it("lets development and tests reach this machine", async () => {
    expect(await refusesUrl(new URL("http://127.0.0.1:3000/inbox"), local)).toBe(false);
    expect(await refusesUrl(new URL("file:///etc/passwd"), local)).toBe(true);
  });
});
