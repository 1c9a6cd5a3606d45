// autocannon's setupRequest for the cold share-card scenario (loaded by its worker thread, hence
// plain CommonJS): each request asks for the card of another seeded member, from a random place
// in their list so that the warm-up and the measured run (each a new worker) ask for other cards.
const members = 20_000; // CARD_MEMBERS in members.ts
let next = Math.floor(Math.random() * members);

module.exports = (request) => {
  next = (next % members) + 1;
  return { ...request, path: `/og/bench-card-${next}.png` };
};
