// Which frame each event becomes for each viewer, and its bytes.
import { describe, expect, it } from "vitest";
import type { PrismEvent } from "../../../contract/events.ts";
import { encodeFrame, frameFor } from "./frames.ts";

const member = (id: number, isAdmin = false) => ({ id, isAdmin });

describe("frameFor", () => {
  it("sends public events to everyone with only their public fields", () => {
    const heartChanged: PrismEvent = {
      type: "heart.changed",
      prismId: 4,
      heartsCount: 2,
      username: "ada",
    };
    expect(frameFor(heartChanged, null)).toEqual({
      type: "heart.changed",
      data: { prismId: 4, heartsCount: 2, username: "ada" },
    });
    expect(
      frameFor({ type: "annotation.changed", prismId: 4, username: "ada" }, member(7)),
    ).toEqual({
      type: "annotation.changed",
      data: { prismId: 4 },
    });
    expect(frameFor({ type: "prisms.changed", username: "ada" }, null)).toEqual({
      type: "prisms.changed",
      data: { username: "ada" },
    });
    expect(encodeFrame({ type: "prisms.changed", data: { username: "ada" } })).toBe(
      'event: prisms.changed\ndata: {"username":"ada"}\n\n',
    );
    // Under its name, which the page sends back with its requests.
    expect(encodeFrame({ type: "prisms.changed", data: { username: "ada" } }, "a/1/2")).toBe(
      'id: a/1/2\nevent: prisms.changed\ndata: {"username":"ada"}\n\n',
    );
  });

  it("sends notification and session events only to their member, with no content", () => {
    for (const type of [
      "notification.created",
      "notifications.changed",
      "sessions.ended",
    ] as const) {
      expect(frameFor({ type, userId: 7 }, member(7))).toEqual({ type, data: {} });
      expect(frameFor({ type, userId: 7 }, member(8))).toBeNull();
      expect(frameFor({ type, userId: 7 }, null)).toBeNull();
    }
  });

  it("keeps the server's own events (profiles, roles) from every page", () => {
    const events: PrismEvent[] = [
      { type: "profile.changed", username: "ada" },
      { type: "roles.changed", userId: 7 },
    ];
    for (const event of events) {
      for (const viewer of [null, member(7), member(8, true)]) {
        expect(frameFor(event, viewer)).toBeNull();
      }
    }
  });

  it("drops event types it does not know (a newer instance may send them)", () => {
    expect(
      frameFor({ type: "something.new", userId: 1 } as unknown as PrismEvent, member(1)),
    ).toBeNull();
  });

  it("sends a change to annotations only some may see to them and admins alone", () => {
    const pending: PrismEvent = {
      type: "annotation.changed",
      prismId: 4,
      username: "ada",
      audience: [7, 9],
    };
    const frame = { type: "annotation.changed", data: { prismId: 4 } };
    expect(frameFor(pending, member(7))).toEqual(frame);
    expect(frameFor(pending, member(9))).toEqual(frame);
    expect(frameFor(pending, member(1, true))).toEqual(frame);
    expect(frameFor(pending, member(8))).toBeNull();
    expect(frameFor(pending, null)).toBeNull();
  });
});
