// Steps of the stories about the landing page's example prism.
import type { Locator, Page } from "@playwright/test";
import { expectHydrated } from "./fixtures.ts";

export const EXAMPLE_TITLE = "How to disagree with me";

/**
 * Every request the page sends from now on to Prism's API (but for its live stream, which every
 * page keeps open) and every write it sends anywhere: what trying the example must never cause.
 */
export function watchRequests(page: Page): string[] {
  const sent: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    const api = pathname.startsWith("/api/") && !pathname.startsWith("/api/events");
    if (api || request.method() !== "GET") sent.push(`${request.method()} ${request.url()}`);
  });
  return sent;
}

/** Opens the landing page and waits until its example prism answers selections. */
export async function openExample(page: Page) {
  await page.goto("/");
  const example = page.getByRole("article", { name: EXAMPLE_TITLE });
  await expectHydrated(example.getByRole("button", { name: "Respond to a passage" }));
  return { example, content: example.locator(".prism-content") };
}

/** The passages the page highlights, in the order they were drawn. */
export function highlighted(page: Page) {
  return page.evaluate(() =>
    [...(CSS.highlights.get("prism-annotation") ?? [])].map((range) => range.toString()),
  );
}

/** The response to `quote` in the example's Responses list. */
export function responseTo(page: Page, quote: string): Locator {
  return page
    .getByRole("list", { name: "Responses" })
    .getByRole("listitem")
    .filter({ has: page.getByText(quote, { exact: true }) });
}
