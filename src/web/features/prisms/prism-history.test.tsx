// @vitest-environment jsdom
// History against Prism's real server: a normal edit marked word by word, and two versions made
// to be as costly as possible to compare, whose comparison stays within a frame's work.
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { diffWords, wordDiff } from "diff";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Prism } from "../../../contract/prisms.ts";
import { type BrowserSession, serveRealApp, useBrowser } from "../../test/real-server.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { PrismHistory } from "./prism-history.tsx";

const server = serveRealApp();
let owner: BrowserSession;
let username: string;

beforeAll(async () => {
  ({ username, browser: owner } = await server.member("owner"));
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** A prism of the owner's saved with `first`, then with `second`: two versions. */
async function prismEdited(first: string, second: string): Promise<Prism> {
  const title = "How I plan";
  const created = await owner.json<Prism>("POST", "/api/prisms", { title, content: first });
  expect(created.status).toBe(201);
  const edited = await owner.json<Prism>("PUT", `/api/prisms/${created.body.id}`, {
    title,
    content: second,
  });
  expect(edited.status).toBe(200);
  return edited.body;
}

function renderHistory(prism: Prism) {
  renderWithQueries(
    <PrismHistory
      prism={prism}
      username={username}
      open
      onOpenChange={() => {}}
      initialNumber={null}
    />,
  );
  return screen.getByRole("dialog", { name: "History" });
}

/**
 * The words the comparison holds against each other, counted as it goes: one costs well under a
 * tenth of a microsecond with the path it extends, so a frame (16 ms) holds some 100,000 of them
 * besides splitting the texts into words. Past that many the comparison is stopped with an error,
 * rather than left to run for a minute.
 */
function countComparisons() {
  const frame = 100_000;
  const counted = { words: 0 };
  const equals = wordDiff.equals.bind(wordDiff);
  vi.spyOn(wordDiff, "equals").mockImplementation((...args) => {
    counted.words += 1;
    if (counted.words > frame) throw new Error(`the comparison held over ${frame} words`);
    return equals(...args);
  });
  return { counted, frame };
}

/** `count` words of two letters, the same for the same seed. */
function randomWords(count: number, seed: number): string[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const letter = () => String.fromCharCode(97 + Math.floor(next() * 26));
  const words = Array.from({ length: count }, () => letter() + letter());
  // The same words in another order: for the comparison, the most costly pair of the size.
  const shuffled = [...words];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j] as string, shuffled[i] as string];
  }
  return [words.join(" "), shuffled.join(" ")];
}

describe("PrismHistory", () => {
  it("marks a normal edit word by word, as the whole comparison does", async () => {
    const before = "I plan my week on Sunday evening. Then I rest.";
    const after = "I plan my week on Monday morning, with coffee. Then I rest.";
    const prism = await prismEdited(`<p>${before}</p>`, `<p>${after}</p>`);
    const { counted } = countComparisons();
    useBrowser(owner);
    const history = renderHistory(prism);

    await within(history).findByRole("heading", { name: "Version 2 (current)" });
    const content = await within(history).findByText((_, element) =>
      Boolean(element?.matches("p.font-serif")),
    );
    expect([...content.querySelectorAll("del")].map((part) => part.textContent)).toEqual([
      "[removed: Sunday evening]",
    ]);
    expect([...content.querySelectorAll("ins")].map((part) => part.textContent)).toEqual([
      "[added: Monday morning, with coffee]",
    ]);
    expect(content.textContent).toBe(
      diffWords(before, after)
        .map((part) =>
          part.added
            ? `[added: ${part.value}]`
            : part.removed
              ? `[removed: ${part.value}]`
              : part.value,
        )
        .join(""),
    );
    expect(counted.words).toBeGreaterThan(0);
    expect(within(history).queryByText(/too many changes/i)).toBeNull();
  });

  it("compares two adversarial 16,000-word versions within a frame's work, and says so", async () => {
    const [before, after] = randomWords(16_000, 33);
    const prism = await prismEdited(`<p>${before}</p>`, `<p>${after}</p>`);
    const { counted, frame } = countComparisons();
    useBrowser(owner);
    const history = renderHistory(prism);

    await within(history).findByRole("heading", { name: "Version 2 (current)" });
    await waitFor(() => expect(counted.words).toBeGreaterThan(0));
    expect(counted.words).toBeLessThanOrEqual(frame);
    await within(history).findByText(/too many changes to mark word by word/i);
    const content = await within(history).findByText((_, element) =>
      Boolean(element?.matches("p.font-serif")),
    );
    // The versions are still both there to read: the earlier one struck through, this one not.
    expect(content.querySelector("del")?.textContent).toBe(`[removed: ${before}]`);
    expect(content.querySelector("ins")?.textContent).toBe(`[added: ${after}]`);
  });
});
