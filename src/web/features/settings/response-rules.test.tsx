// @vitest-environment jsdom
// Profile Settings' rules for responses, against Prism's real server: shown as the member set
// them, saved with the profile, and a watched word too long refused where it was typed.
import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { CurrentUser } from "../../../contract/user.ts";
import { serveRealApp, useBrowser } from "../../test/real-server.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { SettingsPage } from "./settings-page.tsx";

const server = serveRealApp();

afterEach(() => cleanup());

describe("Responses to your prisms", () => {
  it("starts at the check and held links, and saves what the member chooses", async () => {
    const { browser } = await server.member("rules");
    useBrowser(browser);
    renderWithQueries(<SettingsPage />);
    const user = userEvent.setup();

    const check = await screen.findByRole("radio", { name: "Ask for the check" });
    expect((check as HTMLInputElement).checked).toBe(true);
    expect(
      (screen.getByRole("radio", { name: "Held for review" }) as HTMLInputElement).checked,
    ).toBe(true);

    await user.click(screen.getByRole("radio", { name: "Members only" }));
    await user.click(screen.getByRole("radio", { name: "Spam" }));
    await user.type(screen.getByLabelText("Watched words"), "crypto{Enter}free money");
    await user.click(screen.getByRole("button", { name: "Save" }));

    await waitFor(async () => {
      const me = await browser.json<CurrentUser>("GET", "/api/user");
      expect(me.body).toMatchObject({
        anonymousResponses: "members",
        anonymousLinks: "spam",
        watchedWords: ["crypto", "free money"],
      });
    });
    expect(await screen.findByText("Profile updated")).toBeTruthy();
  });

  it("says what is wrong with a watched word, and saves nothing", async () => {
    const { browser } = await server.member("rules");
    useBrowser(browser);
    renderWithQueries(<SettingsPage />);
    const user = userEvent.setup();
    const words = await screen.findByLabelText("Watched words");
    await user.type(words, "x".repeat(61));
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(
      await screen.findByText("Watched words must be at most 60 characters each"),
    ).toBeTruthy();
    const me = await browser.json<CurrentUser>("GET", "/api/user");
    expect(me.body.watchedWords).toEqual([]);
  });
});
