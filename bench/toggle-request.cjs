// autocannon's setupRequest for the heart-toggle scenario: each request comes from another
// address (client-address.cjs, so the per-address heart limit counts each as a new client) and
// from one of 500 anonymous browsers, which therefore heart and un-heart in turn.
// Their `vid` cookies, signed as the server signs them, come from the bench (BENCH_TOGGLERS).
const nextAddress = require("./client-address.cjs");

const browsers = JSON.parse(process.env.BENCH_TOGGLERS ?? "[]");
let sent = 0;

module.exports = (request) => {
  sent += 1;
  return {
    ...request,
    headers: {
      ...request.headers,
      cookie: browsers[sent % browsers.length],
      "x-forwarded-for": nextAddress(),
    },
  };
};
