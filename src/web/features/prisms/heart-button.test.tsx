// @vitest-environment jsdom
// The heart control against Prism's real server: its count, its name for screen readers, its
// pressed state, and the toggle going through the API.
import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HeartStatus, Prism } from "../../../contract/prisms.ts";
import { type BrowserSession, serveRealApp, useBrowser } from "../../test/real-server.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { HeartButton } from "./heart-button.tsx";

const server = serveRealApp();
let owner: BrowserSession;
let username: string;

beforeAll(async () => {
  ({ username, browser: owner } = await server.member("owner"));
});

afterEach(() => cleanup());

let titles = 0;
/** A new prism of the owner's, hearted by `hearts` other visitors. */
async function prismWithHearts(hearts: number): Promise<Prism> {
  titles += 1;
  const created = await owner.json<Prism>("POST", "/api/prisms", {
    title: `How I work, part ${titles}`,
    content: "<p>Slowly, then all at once.</p>",
  });
  expect(created.status).toBe(201);
  for (let i = 0; i < hearts; i++) {
    const hearted = await server.browser().json("POST", `/api/prisms/${created.body.id}/heart`);
    expect(hearted.status).toBe(200);
  }
  return created.body;
}

function heartOf(browser: BrowserSession, prismId: number) {
  return browser.json<HeartStatus>("GET", `/api/prisms/${prismId}/heart`);
}

/** The count the button shows on screen (its name also says what it counts, for screen readers). */
function shownCount(button: HTMLElement) {
  return button.querySelector("span:not(.sr-only)")?.textContent;
}

function renderHeart(prism: Prism, initialCount = prism.heartsCount) {
  return renderWithQueries(
    <HeartButton
      prismId={prism.id}
      username={username}
      title={prism.title}
      initialCount={initialCount}
    />,
  );
}

describe("HeartButton", () => {
  it("is named by the count it shows, first, then by what it counts (label in name)", async () => {
    const prism = await prismWithHearts(12);
    useBrowser(server.browser());
    renderHeart(prism);
    const button = await screen.findByRole("button", {
      name: `12 hearts for "${prism.title}"`,
      pressed: false,
    });
    expect(shownCount(button)).toBe("12");
  });

  it("shows the count it was given, then the server's, in its accessible name", async () => {
    const prism = await prismWithHearts(1);
    const visitor = server.browser();
    useBrowser(visitor);
    // The list the button came from was out of date: it said no hearts.
    renderHeart(prism, 0);
    const button = screen.getByRole("button", { name: `0 hearts for "${prism.title}"` });
    expect(shownCount(button)).toBe("0");
    await screen.findByRole("button", { name: `1 heart for "${prism.title}"` });
    expect(shownCount(button)).toBe("1");
    expect(button.getAttribute("aria-pressed")).toBe("false");
  });

  it("hearts and un-hearts through the API, with its pressed state and name following", async () => {
    const prism = await prismWithHearts(1);
    const visitor = server.browser();
    useBrowser(visitor);
    renderHeart(prism);
    const user = userEvent.setup();
    const button = await screen.findByRole("button", {
      name: `1 heart for "${prism.title}"`,
      pressed: false,
    });

    await user.click(button);
    await screen.findByRole("button", {
      name: `2 hearts for "${prism.title}"`,
      pressed: true,
    });
    expect(shownCount(button)).toBe("2");
    expect((await heartOf(visitor, prism.id)).body).toEqual({ hearted: true, heartsCount: 2 });
    expect((await heartOf(server.browser(), prism.id)).body).toEqual({
      hearted: false,
      heartsCount: 2,
    });

    await user.click(button);
    await screen.findByRole("button", {
      name: `1 heart for "${prism.title}"`,
      pressed: false,
    });
    expect(shownCount(button)).toBe("1");
    expect((await heartOf(visitor, prism.id)).body).toEqual({ hearted: false, heartsCount: 1 });
  });

  it("knows a heart this visitor gave earlier", async () => {
    const prism = await prismWithHearts(0);
    const visitor = server.browser();
    expect((await visitor.json("POST", `/api/prisms/${prism.id}/heart`)).status).toBe(200);
    useBrowser(visitor);
    renderHeart(prism, 1);
    await screen.findByRole("button", {
      name: `1 heart for "${prism.title}"`,
      pressed: true,
    });
  });

  it("cannot be pressed again while its toggle is on the way", async () => {
    const prism = await prismWithHearts(0);
    const visitor = server.browser();
    useBrowser(visitor);
    renderHeart(prism);
    const user = userEvent.setup();
    const button = await screen.findByRole("button", { name: `0 hearts for "${prism.title}"` });
    const release = visitor.hold();
    await user.click(button);
    await waitFor(() => expect(button.getAttribute("aria-disabled")).toBe("true"));
    // A second click while disabled sends nothing.
    await user.click(button);
    release();
    await screen.findByRole("button", {
      name: `1 heart for "${prism.title}"`,
      pressed: true,
    });
    expect(button.getAttribute("aria-disabled")).toBe("false");
    expect((await heartOf(visitor, prism.id)).body).toEqual({ hearted: true, heartsCount: 1 });
  });

  it("says what went wrong when the server refuses, and stays as it was", async () => {
    const missing = { ...(await prismWithHearts(0)), id: 2_147_483_000, title: "Gone" };
    const visitor = server.browser();
    const refusal = await visitor.json<{ message: string }>(
      "POST",
      `/api/prisms/${missing.id}/heart`,
    );
    expect(refusal.status).toBe(404);
    useBrowser(visitor);
    renderHeart(missing, 3);
    const user = userEvent.setup();
    const button = screen.getByRole("button", { name: `3 hearts for "Gone"` });
    await user.click(button);
    await screen.findByText(refusal.body.message);
    expect(button.getAttribute("aria-pressed")).toBe("false");
    expect(shownCount(button)).toBe("3");
    expect(button.getAttribute("aria-disabled")).toBe("false");
  });
});
