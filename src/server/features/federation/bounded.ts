// A bound on work done at once: the inbox's activities are read, verified and queued a few at a
// time, the rest waiting their turn (first come, first served). Each activity's work is many
// short steps, and every step of every activity under way runs before a request that arrived
// after them is read: with ten servers posting at once, a page read waited behind ten activities'
// steps at each turn of the event loop.
export class Bounded {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  /** Runs `work` once fewer than `size` others run, and answers what it answers. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.size) this.running += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The place goes to the first waiting, else it is free.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
