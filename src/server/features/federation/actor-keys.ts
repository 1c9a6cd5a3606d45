// Members' actors' key pairs: a member's actor and its key pair are made the first time they are
// asked for, once however many requests of this process ask for them at the same time (the
// database keeps one actor a member either way; the others' key pairs were made for nothing).
import type { Executor } from "../../db/client.ts";
import type { UserRow } from "../../db/schema.ts";
import { type ActorRow, actorOf } from "./service.ts";

export class ActorKeys {
  private readonly making = new Map<number, Promise<ActorRow>>();

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
