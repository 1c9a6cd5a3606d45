// The replies measurement's readers in a process of their own, as a page's readers are: autocannon
// reads one address at a steady rate from a warm start (a second's reading first, not counted)
// until told to stop, then answers its result. Their requests are timed on a loop that Prism's
// work never holds, and each latency is recorded as it was: autocannon's correction for
// coordinated omission, on a rate-limited run, takes the expected interval as 1 ms and adds a
// made-up sample for every millisecond of each answer.
import autocannon from "autocannon";

export interface ReadOrder {
  url: string;
  connections: number;
  overallRate: number;
}

process.once("message", async (order: ReadOrder) => {
  const options = { ...order, ignoreCoordinatedOmission: true };
  await autocannon({ ...options, duration: 1 });
  const reading = autocannon({ ...options, duration: 3600 }, (error, result) =>
    process.send?.(error ? { error: String(error) } : { result }),
  );
  process.once("message", () => reading.stop());
  process.send?.({ reading: true });
});
process.once("disconnect", () => process.exit(0));
