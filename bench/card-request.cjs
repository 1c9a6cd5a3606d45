// autocannon's setupRequest for the cold share-card scenario: each request asks for the card of
// another seeded member, from a random place in their list so that the runs (each a new worker)
// ask for other cards, and comes from another address (client-address.cjs), so that the
// per-address limit of draws spends from a new counter and never answers 429.
const nextAddress = require("./client-address.cjs");

const members = 20_000; // CARD_MEMBERS in members.ts
let next = Math.floor(Math.random() * members);

module.exports = (request) => {
  next = (next % members) + 1;
  return {
    ...request,
    path: `/og/bench-card-${next}.png`,
    headers: { ...request.headers, "x-forwarded-for": nextAddress() },
  };
};
