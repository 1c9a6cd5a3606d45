// autocannon's setupRequest for the cold share-card scenario (loaded by its worker thread, hence
// plain CommonJS): each request asks for the card of another seeded member, from a random place
// in their list so that the warm-up and the measured run (each a new worker) ask for other cards,
// and comes from another loopback address (the bench app trusts one proxy hop), so that the
// per-address limit of draws spends from a new counter and never answers 429.
const members = 20_000; // CARD_MEMBERS in members.ts
let next = Math.floor(Math.random() * members);

module.exports = (request) => {
  next = (next % members) + 1;
  const address = `127.${(next >> 16) & 255}.${(next >> 8) & 255}.${next & 255}`;
  return {
    ...request,
    path: `/og/bench-card-${next}.png`,
    headers: { ...request.headers, "x-forwarded-for": address },
  };
};
