// Members' actors' key pairs: a member's actor and its key pair are made the first time they are
// asked for, once however many requests of this process ask for them at the same time (the
// database keeps one actor a member either way; the others' key pairs were made for nothing); and
// imported from their JWKs once per process, not at every request that needs them. An actor's
// keys are its row's: a row made again (the member federates again after they stopped) has
// another id, a row whose keys were replaced another public key; either is imported afresh.
import { importJwk } from "@fedify/fedify";
import { LRUCache } from "lru-cache";
import type { Executor } from "../../db/client.ts";
import type { UserRow } from "../../db/schema.ts";
import { type ActorRow, actorOf } from "./service.ts";

/** How many actors' imported key pairs a process keeps. */
const KEPT = 1000;

export class ActorKeys {
  private readonly imported = new LRUCache<
    number,
    { version: string; pair: Promise<CryptoKeyPair> }
  >({ max: KEPT });
  private readonly making = new Map<number, Promise<ActorRow>>();

  /** The actor's key pair, imported. */
  pairOf(actor: ActorRow): Promise<CryptoKeyPair> {
    const version = JSON.stringify(actor.publicKey);
    const known = this.imported.get(actor.id);
    if (known?.version === version) return known.pair;
    const pair = Promise.all([
      importJwk(actor.publicKey, "public"),
      importJwk(actor.privateKey, "private"),
    ]).then(([publicKey, privateKey]) => ({ publicKey, privateKey }));
    this.imported.set(actor.id, { version, pair });
    pair.catch(() => {
      if (this.imported.get(actor.id)?.pair === pair) this.imported.delete(actor.id);
    });
    return pair;
  }

  /**
   * The member's actor (`actor` when it was read with them), made when it was never asked for: a
   * key pair is made once, however many requests of this process ask for it at the same time.
   */
  actorOf(db: Executor, member: UserRow, actor: ActorRow | null): Promise<ActorRow> {
    if (actor) return Promise.resolve(actor);
    const under = this.making.get(member.id);
    if (under) return under;
    const making = actorOf(db, member).finally(() => this.making.delete(member.id));
    this.making.set(member.id, making);
    return making;
  }
}
