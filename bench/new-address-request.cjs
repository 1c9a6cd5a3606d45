// autocannon's setupRequest for the reset-request scenarios (loaded by its worker thread, hence
// plain CommonJS): each request comes from another loopback address (the bench app trusts one
// proxy hop), so that the per-address limit spends from a new counter and never answers 429.
let sent = 0;

module.exports = (request) => {
  sent += 1;
  const address = `127.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`;
  return { ...request, headers: { ...request.headers, "x-forwarded-for": address } };
};
