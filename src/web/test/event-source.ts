// The browser's EventSource, which jsdom lacks, for component tests of the live client: a stream
// opens GET /api/events on Prism's real server with a browser's cookies, and dispatches each event
// the server sends, in order, as a browser does (named by its `event:` line, with its `data:`).
// It does not reconnect by itself: a dropped stream is CLOSED, and the live client reopens it.
import { type ClientRequest, request as httpRequest } from "node:http";
import type { BrowserSession, RealServer } from "./real-server.ts";

export class StreamInBrowser extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;

  readyState = StreamInBrowser.CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  private readonly request: ClientRequest;
  private readonly dispatched: string[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(url: URL, cookie: string) {
    super();
    // A socket of its own: closing it ends the stream, as closing a tab does.
    this.request = httpRequest(url, {
      headers: { accept: "text/event-stream", cookie },
      agent: false,
    });
    this.request.once("response", (response) => {
      if (response.statusCode !== 200) return this.fail();
      this.readyState = StreamInBrowser.OPEN;
      this.onopen?.(new Event("open"));
      response.setEncoding("utf8");
      let buffer = "";
      response.on("data", (chunk: string) => {
        buffer += chunk;
        for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
          this.dispatchBlock(buffer.slice(0, at));
          buffer = buffer.slice(at + 2);
        }
      });
      response.once("end", () => this.fail());
    });
    this.request.once("error", () => this.fail());
    this.request.end();
  }

  close() {
    this.readyState = StreamInBrowser.CLOSED;
    this.request.destroy();
  }

  /** Resolves once an event of `type` has been dispatched (and its listeners have run). */
  heard(type: string): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!this.dispatched.includes(type)) return;
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
      check();
    });
  }

  private dispatchBlock(block: string) {
    let type = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) type = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    // Comments and the retry line carry no data, and are no events.
    if (data.length === 0) return;
    this.dispatchEvent(new MessageEvent(type, { data: data.join("\n") }));
    this.dispatched.push(type);
    for (const waiter of [...this.waiters]) waiter();
  }

  private fail() {
    if (this.readyState === StreamInBrowser.CLOSED) return;
    this.readyState = StreamInBrowser.CLOSED;
    this.onerror?.(new Event("error"));
  }
}

/**
 * Gives the page an EventSource that streams from `server` as `browser`; returns the streams
 * the page opens, newest last.
 */
export function useEventSource(server: RealServer, browser: BrowserSession): StreamInBrowser[] {
  const opened: StreamInBrowser[] = [];
  globalThis.EventSource = class extends StreamInBrowser {
    constructor(path: string | URL) {
      super(new URL(path, server.url), browser.cookieHeader());
      opened.push(this);
    }
  } as unknown as typeof EventSource;
  return opened;
}
