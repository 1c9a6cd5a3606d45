// The replies measurement's crowd (src/server/test/crowd.ts) in a process of its own, as the
// servers that send replies are elsewhere: its signing, its sending and the actors it serves are
// not counted as Prism's work, and it runs at a lower priority than Prism and the profile's
// readers, so that on a small machine it takes the time they leave. Told over IPC how many
// actors to serve (its argument) and what to send; answers its origin, then the statuses.
import { setPriority } from "node:os";
import { startCrowd } from "../src/server/test/crowd.ts";

export interface CrowdOrder {
  inbox: string;
  article: string;
  count: number;
}

setPriority(10);
const crowd = await startCrowd(Number(process.argv[2]));
process.send?.({ origin: crowd.origin });
process.once("message", (order: CrowdOrder) => {
  crowd
    .reply({ inbox: new URL(order.inbox), article: new URL(order.article), count: order.count })
    .then((statuses) => process.send?.({ statuses }));
});
process.once("disconnect", () => {
  crowd.close().finally(() => process.exit(0));
});
