// The replies measurement's crowd (src/server/test/crowd.ts) in a worker thread of its own: the
// crowd stands for other servers, whose signing, sending and serving of actors would otherwise
// share the event loop of the Prism it measures, and be counted in the profile read's latency.
import { parentPort, Worker, workerData } from "node:worker_threads";
import { type Crowd, startCrowd } from "../src/server/test/crowd.ts";

type Request = { reply: { inbox: string; article: string; count: number } } | { close: true };
type Answer = { origin: string } | { statuses: number[] } | { closed: true };

/** Starts a crowd of `size` actors in a worker thread; its `reply` and `close` go through it. */
export async function startCrowdInWorker(size: number): Promise<Pick<Crowd, "reply" | "close">> {
  // A worker's own entry is loaded before any --import of its: tsx is registered first, then
  // this module is imported.
  const entry = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(entry, { eval: true, workerData: { size } });
  const answers: ((answer: Answer) => void)[] = [];
  worker.on("message", (answer: Answer) => answers.shift()?.(answer));
  const ask = (request: Request | undefined) =>
    new Promise<Answer>((resolve, reject) => {
      answers.push(resolve);
      worker.once("error", reject);
      if (request) worker.postMessage(request);
    });
  await ask(undefined);
  return {
    async reply({ inbox, article, count }) {
      const answer = await ask({ reply: { inbox: inbox.href, article: article.href, count } });
      return "statuses" in answer ? answer.statuses : [];
    },
    async close() {
      await ask({ close: true });
      await worker.terminate();
    },
  };
}

if (parentPort && workerData?.size) {
  const port = parentPort;
  const crowd = await startCrowd(workerData.size);
  port.on("message", async (request: Request) => {
    if ("close" in request) {
      await crowd.close();
      port.postMessage({ closed: true } satisfies Answer);
      return;
    }
    const { inbox, article, count } = request.reply;
    const statuses = await crowd.reply({ inbox: new URL(inbox), article: new URL(article), count });
    port.postMessage({ statuses } satisfies Answer);
  });
  port.postMessage({ origin: crowd.origin } satisfies Answer);
}
