// autocannon's setupRequest for the heart-toggle scenario (loaded by its worker thread, hence
// plain CommonJS): each request comes from another loopback address (the bench app trusts one
// proxy hop, so the per-address heart limit counts each as a new client) and from one of 500
// anonymous browsers, which therefore heart and un-heart in turn.
let sent = 0;

module.exports = (request) => {
  sent += 1;
  const visitor = String(sent % 500).padStart(10, "0");
  const address = `127.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`;
  return {
    ...request,
    headers: {
      ...request.headers,
      cookie: `vid=bench-toggler-${visitor}`,
      "x-forwarded-for": address,
    },
  };
};
