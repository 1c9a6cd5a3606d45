// @vitest-environment jsdom
// Profile Settings' team choices, against Prism's real server: teammates' responses pre-approved
// and no news of their prisms until the member asks, both saved with the profile.
import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { CurrentUser } from "../../../contract/user.ts";
import { serveRealApp, useBrowser } from "../../test/real-server.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { SettingsPage } from "./settings-page.tsx";

const server = serveRealApp();

afterEach(() => cleanup());

describe("Teammates in Profile Settings", () => {
  it("starts pre-approving teammates and telling nothing, and saves the member's choice", async () => {
    const { browser } = await server.member("teamlife");
    useBrowser(browser);
    renderWithQueries(<SettingsPage />);
    const user = userEvent.setup();

    const preapprove = (await screen.findByRole("checkbox", {
      name: "Pre-approve my teammates' responses",
    })) as HTMLInputElement;
    const tell = screen.getByRole("checkbox", {
      name: "Tell me when a teammate writes or edits a prism",
    }) as HTMLInputElement;
    expect([preapprove.checked, tell.checked]).toEqual([true, false]);

    await user.click(preapprove);
    await user.click(tell);
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(async () => {
      const me = await browser.json<CurrentUser>("GET", "/api/user");
      expect(me.body).toMatchObject({ preapproveTeammates: false, notifyTeamPrisms: true });
    });
  });
});
