// @vitest-environment jsdom
// The owner's review page against Prism's real server. The Flagged folder: each flagged published
// response with how many people flagged it and why; Keep leaves it published and the folder
// empty. The queue: after a decision, focus is on the row that took the decided one's place.
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Annotation } from "../../../contract/annotations.ts";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import type { Prism } from "../../../contract/prisms.ts";
import { queryKeys } from "../../lib/query.ts";
import { type BrowserSession, serveRealApp, useBrowser } from "../../test/real-server.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { ReviewPage } from "./review-page.tsx";

const server = serveRealApp();
const content = "<p>Slowly, then all at once.</p>";
let owner: BrowserSession;
let author: BrowserSession;
let prism: Prism;
let annotation: Annotation;

/** `author`'s response to `quote` in the prism, waiting for the owner's review. */
async function respond(annotationText: string, quote = "Slowly") {
  const start = htmlToPlainText(content).indexOf(quote);
  return (
    await author.json<Annotation>("POST", "/api/annotations", {
      prismId: prism.id,
      selectedText: quote,
      selectionStart: start,
      selectionEnd: start + quote.length,
      annotationText,
    })
  ).body;
}

beforeAll(async () => {
  ({ browser: owner } = await server.member("owner"));
  ({ browser: author } = await server.member("author"));
  prism = (await owner.json<Prism>("POST", "/api/prisms", { title: "How I decide", content })).body;
  annotation = await respond("You are wrong, and here is why.", "all at once");
  await owner.json("PUT", `/api/annotations/${annotation.id}/status`, { status: "approved" });
  for (const reason of ["abuse", "abuse", "spam"]) {
    const { browser: reader } = await server.member("reader");
    expect(
      (await reader.json("POST", `/api/annotations/${annotation.id}/flag`, { reason })).status,
    ).toBe(201);
  }
});

afterEach(() => cleanup());

describe("the Flagged folder", () => {
  it("shows how many people flagged a response and why, and Keep settles it", async () => {
    window.history.replaceState(null, "", "/review?status=flagged");
    useBrowser(owner);
    const user = userEvent.setup();
    renderWithQueries(<ReviewPage />);

    const folders = screen.getByRole("navigation", { name: "Folders" });
    expect(
      await screen.findByText("Flagged by 3 people: Abuse or harassment (2), Spam (1)"),
    ).toBeTruthy();
    // The folder counts the responses flagged (one, however many flagged it), beside Waiting's.
    const flagged = within(folders).getByRole("link", { name: "Flagged (1 response)" });
    expect(flagged.getAttribute("aria-current")).toBe("page");
    expect(within(folders).getByRole("link", { name: "Waiting" })).toBeTruthy();
    const list = screen.getByRole("list", { name: "Responses to review" });
    expect(within(list).getByText("You are wrong, and here is why.")).toBeTruthy();

    await user.click(within(list).getByRole("button", { name: /^Keep/ }));
    expect(await screen.findByText("1 response kept")).toBeTruthy();
    expect(await screen.findByText("Nothing flagged")).toBeTruthy();
    expect(within(folders).getByRole("link", { name: "Flagged" })).toBe(flagged);
    await waitFor(async () => {
      const read = await owner.json<Annotation>("GET", `/api/annotations/${annotation.id}`);
      expect(read.body.status).toBe("approved");
    });
  });
});

describe("the queue waiting for review", () => {
  it("focuses the row that takes a decided response's place, once the list shows it", async () => {
    for (const text of ["First to decide.", "Second in line.", "Third in line."]) {
      await respond(text);
    }
    window.history.replaceState(null, "", "/review");
    useBrowser(owner);
    // Once the decision is answered, the owner's requests wait (`release`): the list's refetch
    // that follows it is still on its way when the page's live stream hears of the change.
    let release = () => {};
    const ownersFetch = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await ownersFetch(input, init);
      if (String(input).startsWith("/api/annotations/bulk")) release = owner.hold();
      return response;
    }) as typeof fetch;
    const user = userEvent.setup();
    const { queryClient } = renderWithQueries(<ReviewPage />);
    const list = await screen.findByRole("list", { name: "Responses to review" });
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(3));

    await user.keyboard("j");
    expect(document.activeElement).toBe(within(list).getAllByRole("checkbox")[0]);
    await user.keyboard("a");
    await waitFor(() => expect(queryClient.isFetching({ queryKey: queryKeys.review })).toBe(1));
    // The stream's event: what the page shows is fetched again, the request on its way cancelled.
    // The decision's own wait for the list ends there, before any new list has come.
    await queryClient.cancelQueries({ queryKey: queryKeys.review, type: "active" });
    expect(await screen.findByText("1 response approved")).toBeTruthy();
    void queryClient.invalidateQueries({ queryKey: queryKeys.review });
    release();

    await waitFor(() => {
      const [first] = within(list).getAllByRole("listitem");
      expect(first?.textContent).toContain("Second in line.");
      expect(document.activeElement).toBe(within(list).getAllByRole("checkbox")[0]);
    });
  });
});
