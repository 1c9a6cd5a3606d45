// A new client address for every request of a run, for the setupRequest modules (loaded by
// autocannon's worker threads, hence plain CommonJS): the bench app trusts one proxy hop
// (X-Forwarded-For), so each request spends from a new per-address counter and never answers
// 429. A scenario is measured in several runs, each a new worker: each worker counts from its
// own thread id's block of 2^20 addresses, so no run reuses another's.
const { threadId } = require("node:worker_threads");

let sent = 0;

module.exports = function nextAddress() {
  const n = (threadId * 2 ** 20 + sent++) % 2 ** 32;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
};
