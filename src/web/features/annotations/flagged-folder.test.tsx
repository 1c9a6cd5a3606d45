// @vitest-environment jsdom
// The owner's Flagged folder against Prism's real server: each flagged published response with how
// many people flagged it and why; Keep leaves it published and the folder empty.
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Annotation } from "../../../contract/annotations.ts";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import type { Prism } from "../../../contract/prisms.ts";
import { type BrowserSession, serveRealApp, useBrowser } from "../../test/real-server.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { ReviewPage } from "./review-page.tsx";

const server = serveRealApp();
const content = "<p>Slowly, then all at once.</p>";
let owner: BrowserSession;
let annotation: Annotation;

beforeAll(async () => {
  ({ browser: owner } = await server.member("owner"));
  const { browser: author } = await server.member("author");
  const prism = (await owner.json<Prism>("POST", "/api/prisms", { title: "How I decide", content }))
    .body;
  const start = htmlToPlainText(content).indexOf("all at once");
  annotation = (
    await author.json<Annotation>("POST", "/api/annotations", {
      prismId: prism.id,
      selectedText: "all at once",
      selectionStart: start,
      selectionEnd: start + 11,
      annotationText: "You are wrong, and here is why.",
    })
  ).body;
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
