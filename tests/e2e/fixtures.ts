// Shared steps of the end-to-end stories: fresh members, signed in through the API.
import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page } from "@playwright/test";

export const PASSWORD = "e2e-password";
export const ORIGIN = `http://localhost:${process.env.E2E_PORT ?? 4173}`;

export interface Member {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
}

export function newMember(prefix = "member"): Member {
  const username = `${prefix}_${randomBytes(4).toString("hex")}`;
  return { username, email: `${username}@example.com`, firstName: "Robin", lastName: "Quill" };
}

/** Registers a member through the API; the request context (and so its page) is then signed in. */
export async function registerThroughApi(
  request: APIRequestContext,
  member = newMember(),
): Promise<Member> {
  const response = await request.post("/api/register", {
    data: { ...member, password: PASSWORD },
    headers: { origin: ORIGIN },
  });
  expect(response.status()).toBe(201);
  return member;
}

export async function expectNoAxeViolations(page: Page) {
  // Colours are judged as they end up: a toast or dialog caught halfway through fading in would
  // read as low contrast. Wait for the finite animations and transitions to finish first.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter(
          (animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY,
        )
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map(
      (v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    ),
  ).toEqual([]);
}
