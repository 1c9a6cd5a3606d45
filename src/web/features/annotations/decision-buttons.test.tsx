// @vitest-environment jsdom
// Approve and Reject against Prism's real server: the decision is stored, the owner is told, the
// caller hears of it, and a refused decision changes nothing.
import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Annotation } from "../../../contract/annotations.ts";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import type { Prism } from "../../../contract/prisms.ts";
import { type BrowserSession, serveRealApp, useBrowser } from "../../test/real-server.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { DecisionButtons } from "./decision-buttons.tsx";

const server = serveRealApp();
const content = "<p>Slowly, then <strong>all at once</strong>.</p><p>Ask me anything.</p>";
let owner: BrowserSession;
let reader: BrowserSession;
let stranger: BrowserSession;
let prism: Prism;

beforeAll(async () => {
  ({ browser: owner } = await server.member("owner"));
  ({ browser: reader } = await server.member("reader"));
  ({ browser: stranger } = await server.member("stranger"));
  const created = await owner.json<Prism>("POST", "/api/prisms", {
    title: "How I decide",
    content,
  });
  expect(created.status).toBe(201);
  prism = created.body;
});

afterEach(() => cleanup());

/** A reader's pending response to `quote`, with the offsets the server expects. */
async function pendingAnnotation(quote: string): Promise<Annotation> {
  const start = htmlToPlainText(content).indexOf(quote);
  const created = await reader.json<Annotation>("POST", "/api/annotations", {
    prismId: prism.id,
    selectedText: quote,
    selectionStart: start,
    selectionEnd: start + quote.length,
    annotationText: `A thought on ${quote}`,
  });
  expect(created.status).toBe(201);
  expect(created.body.status).toBe("pending");
  return created.body;
}

async function statusOf(annotation: Annotation) {
  const read = await owner.json<Annotation>("GET", `/api/annotations/${annotation.id}`);
  expect(read.status).toBe(200);
  return read.body.status;
}

describe("DecisionButtons", () => {
  it("Approve approves the annotation on the server, says so, and tells its caller", async () => {
    const annotation = await pendingAnnotation("all at once");
    const onDecided = vi.fn();
    useBrowser(owner);
    renderWithQueries(<DecisionButtons annotationId={annotation.id} onDecided={onDecided} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Approve" }));
    await screen.findByText("Annotation approved");
    expect(onDecided).toHaveBeenCalledTimes(1);
    expect(await statusOf(annotation)).toBe("approved");
  });

  it("Reject (under the labels its caller gives) rejects the annotation", async () => {
    const annotation = await pendingAnnotation("Ask me");
    const onDecided = vi.fn();
    useBrowser(owner);
    renderWithQueries(
      <DecisionButtons
        annotationId={annotation.id}
        labels={{ approve: "Show it", reject: "Hide it" }}
        onDecided={onDecided}
      />,
    );
    expect(screen.queryByRole("button", { name: "Reject" })).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Hide it" }));
    await screen.findByText("Annotation rejected");
    expect(onDecided).toHaveBeenCalledTimes(1);
    expect(await statusOf(annotation)).toBe("rejected");
  });

  it("both buttons wait while a decision is on the way", async () => {
    const annotation = await pendingAnnotation("Slowly");
    useBrowser(owner);
    renderWithQueries(<DecisionButtons annotationId={annotation.id} />);
    const user = userEvent.setup();
    const approve = screen.getByRole("button", { name: "Approve" });
    const reject = screen.getByRole("button", { name: "Reject" });
    const release = owner.hold();
    await user.click(approve);
    await waitFor(() => expect(approve).toHaveProperty("disabled", true));
    expect(reject).toHaveProperty("disabled", true);
    // Reject cannot overtake the approval on the way.
    await user.click(reject);
    release();
    await screen.findByText("Annotation approved");
    await waitFor(() => expect(reject).toHaveProperty("disabled", false));
    expect(await statusOf(annotation)).toBe("approved");
  });

  it("a decision the server refuses leaves the annotation as it was and says so", async () => {
    const annotation = await pendingAnnotation("anything");
    const onDecided = vi.fn();
    // Only the prism's owner may decide.
    useBrowser(stranger);
    renderWithQueries(<DecisionButtons annotationId={annotation.id} onDecided={onDecided} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Approve" }));
    await screen.findByText("Failed to approve annotation. Please try again.");
    await user.click(screen.getByRole("button", { name: "Reject" }));
    await screen.findByText("Failed to reject annotation. Please try again.");
    expect(onDecided).not.toHaveBeenCalled();
    expect(await statusOf(annotation)).toBe("pending");
  });

  it("an annotation decided elsewhere in the meantime is not decided again", async () => {
    const annotation = await pendingAnnotation("then");
    const decided = await owner.json("PUT", `/api/annotations/${annotation.id}/status`, {
      status: "approved",
    });
    expect(decided.status).toBe(200);
    const onDecided = vi.fn();
    useBrowser(owner);
    renderWithQueries(<DecisionButtons annotationId={annotation.id} onDecided={onDecided} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Reject" }));
    await screen.findByText("Failed to reject annotation. Please try again.");
    expect(onDecided).not.toHaveBeenCalled();
    expect(await statusOf(annotation)).toBe("approved");
  });
});
