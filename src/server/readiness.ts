// Whether this process should be sent traffic: its database answers, holds every migration this
// version of Prism knows, and its event listener is connected (else the process would answer
// from memory that other instances' changes no longer reach), and it is not shutting down. Load
// balancers poll it often, so the database is asked at most once per interval, and never twice at
// once.
import type { Database } from "./db/client.ts";

export type ReadyState = { ready: true } | { ready: false; message: string };

export class Readiness {
  private last: { at: number; answer: Promise<ReadyState> } | undefined;
  private asking = false;
  private stopping = false;

  constructor(
    private readonly database: Pick<Database, "status">,
    private readonly everyMs = 1000,
  ) {}

  /** From now on not ready, whatever the database says: the process is draining to stop. */
  stop() {
    this.stopping = true;
  }

  /** The latest answer, asked afresh when it is older than the interval. */
  current(): Promise<ReadyState> {
    if (this.stopping) return Promise.resolve({ ready: false, message: "shutting down" });
    const now = performance.now();
    if (this.last && (this.asking || now - this.last.at < this.everyMs)) return this.last.answer;
    this.asking = true;
    const answer = this.ask().finally(() => {
      this.asking = false;
    });
    this.last = { at: now, answer };
    return answer;
  }

  private async ask(): Promise<ReadyState> {
    let status: Awaited<ReturnType<Database["status"]>>;
    try {
      status = await this.database.status();
    } catch {
      return { ready: false, message: "database unreachable" };
    }
    if (!status.migrated) return { ready: false, message: "database migrations pending" };
    if (!status.listening) return { ready: false, message: "event listener disconnected" };
    return { ready: true };
  }
}
