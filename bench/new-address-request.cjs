// autocannon's setupRequest for the reset-request scenarios: each request comes from another
// address (client-address.cjs), so that the per-address limit spends from a new counter.
const nextAddress = require("./client-address.cjs");

module.exports = (request) => ({
  ...request,
  headers: { ...request.headers, "x-forwarded-for": nextAddress() },
});
