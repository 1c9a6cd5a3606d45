// @vitest-environment jsdom
// Flag on a published response, against Prism's real server: only on published responses of
// others; a reason is asked for; the flag is stored with its note and the reader is thanked.
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Annotation, ReviewPage } from "../../../contract/annotations.ts";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import type { Prism } from "../../../contract/prisms.ts";
import { type BrowserSession, serveRealApp, useBrowser } from "../../test/real-server.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { ResponseCard } from "./response-card.tsx";

const server = serveRealApp();
const content = "<p>Slowly, then all at once.</p>";
let owner: BrowserSession;
let author: BrowserSession;
let reader: BrowserSession;
let prism: Prism;

beforeAll(async () => {
  ({ browser: owner } = await server.member("owner"));
  ({ browser: author } = await server.member("author"));
  ({ browser: reader } = await server.member("reader"));
  prism = (await owner.json<Prism>("POST", "/api/prisms", { title: "How I decide", content })).body;
});

afterEach(() => cleanup());

/** The author's response to `quote`, approved by the owner unless `approve` is false. */
async function response(quote: string, approve = true): Promise<Annotation> {
  const start = htmlToPlainText(content).indexOf(quote);
  const created = await author.json<Annotation>("POST", "/api/annotations", {
    prismId: prism.id,
    selectedText: quote,
    selectionStart: start,
    selectionEnd: start + quote.length,
    annotationText: `A thought on ${quote}`,
  });
  if (!approve) return created.body;
  const approved = await owner.json<Annotation>(
    "PUT",
    `/api/annotations/${created.body.id}/status`,
    { status: "approved" },
  );
  expect(approved.status).toBe(200);
  return (await reader.json<Annotation>("GET", `/api/annotations/${created.body.id}`)).body;
}

const card = (annotation: Annotation) =>
  renderWithQueries(
    <ul>
      <ResponseCard annotation={annotation} flaggable />
    </ul>,
  );

describe("Flag", () => {
  it("asks why, sends the reason and note, and thanks the reader", async () => {
    const annotation = await response("all at once");
    useBrowser(reader);
    const user = userEvent.setup();
    card(annotation);

    await user.click(screen.getByRole("button", { name: /^Flag the response by/ }));
    const dialog = await screen.findByRole("dialog", { name: "Flag this response" });
    const reasons = within(dialog).getByRole("group", { name: "Why are you flagging it?" });
    expect(
      within(reasons)
        .getAllByRole("radio")
        .map((radio) => radio.getAttribute("value")),
    ).toEqual(["spam", "abuse", "private", "other"]);

    // No reason chosen: nothing is sent.
    await user.click(within(dialog).getByRole("button", { name: "Send flag" }));
    expect(within(dialog).getByText("Choose a reason")).toBeTruthy();

    await user.click(within(dialog).getByRole("radio", { name: /Private information/ }));
    await user.type(within(dialog).getByLabelText("Add a note (optional)"), "My address");
    await user.click(within(dialog).getByRole("button", { name: "Send flag" }));

    expect(await screen.findByText("Flag sent")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const folder = await owner.json<ReviewPage>("GET", "/api/annotations/review?status=flagged");
    expect(folder.body.items).toEqual([
      expect.objectContaining({
        id: annotation.id,
        flags: { count: 1, reasons: [{ reason: "private", count: 1 }] },
      }),
    ]);
  });

  it("is offered on others' published responses only", async () => {
    const published = await response("Slowly");
    const waiting = await response("then", false);
    const own = (await author.json<Annotation>("GET", `/api/annotations/${published.id}`)).body;
    for (const [annotation, offered] of [
      [published, true],
      [waiting, false],
      [own, false],
    ] as const) {
      card(annotation);
      expect(screen.queryByRole("button", { name: /^Flag the response by/ }) !== null).toBe(
        offered,
      );
      cleanup();
    }
  });
});
