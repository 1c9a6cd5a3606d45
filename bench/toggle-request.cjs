// autocannon's setupRequest for the heart-toggle scenario (loaded by its worker thread, hence
// plain CommonJS): each request comes from another loopback address (the bench app trusts one
// proxy hop, so the per-address heart limit counts each as a new client) and from one of 500
// anonymous browsers, which therefore heart and un-heart in turn.
// Their `vid` cookies, signed as the server signs them, come from the bench (BENCH_TOGGLERS).
const browsers = JSON.parse(process.env.BENCH_TOGGLERS ?? "[]");
let sent = 0;

module.exports = (request) => {
  sent += 1;
  const address = `127.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`;
  return {
    ...request,
    headers: {
      ...request.headers,
      cookie: browsers[sent % browsers.length],
      "x-forwarded-for": address,
    },
  };
};
