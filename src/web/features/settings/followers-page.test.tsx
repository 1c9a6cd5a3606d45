// @vitest-environment jsdom
// Followers on the fediverse, against Prism's real server: "Approve followers myself" is saved
// with the profile; the list shows follows waiting first with Accept and Decline, then the
// followers with their total, and Remove asks before it acts; what the server refuses is said.
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { Follower } from "../../../contract/federation.ts";
import type { CurrentUser } from "../../../contract/user.ts";
import { serveRealApp, useBrowser } from "../../test/real-server.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { FollowerLists, FollowersPage } from "./followers-page.tsx";
import { SettingsPage } from "./settings-page.tsx";

const server = serveRealApp();

afterEach(() => cleanup());

const follower = (id: number, name: string, pending: boolean): Follower => ({
  id,
  actor: `https://social.example/users/${name}`,
  handle: `@${name}@social.example`,
  server: "social.example",
  pending,
  followedAt: "2026-11-01T10:00:00.000Z",
});

describe("Approve followers myself", () => {
  it("is off at first, and saved with the profile when turned on", async () => {
    const { browser } = await server.member("approver");
    useBrowser(browser);
    renderWithQueries(<SettingsPage />);
    const user = userEvent.setup();

    const box = await screen.findByRole("checkbox", { name: "Approve followers myself" });
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole("link", { name: "Your followers on the fediverse" })).toHaveProperty(
      "pathname",
      "/profile/followers",
    );
    await user.click(box);
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(async () => {
      const me = await browser.json<CurrentUser>("GET", "/api/user");
      expect(me.body.approveFollowers).toBe(true);
    });
  });
});

describe("the followers page", () => {
  it("says when nobody follows the member yet", async () => {
    const { browser } = await server.member("lonely");
    useBrowser(browser);
    renderWithQueries(<FollowersPage />);
    expect(await screen.findByRole("heading", { name: "0 followers" })).toBeTruthy();
    expect(screen.getByText("Nobody follows you from the fediverse yet.")).toBeTruthy();
    expect(screen.queryByRole("heading", { name: /Waiting for you/ })).toBeNull();
  });

  it("lists waiting follows first, then followers with their total", async () => {
    const { browser } = await server.member("listed");
    useBrowser(browser);
    renderWithQueries(
      <FollowerLists
        followers={[
          follower(1, "wren", true),
          follower(2, "bob", false),
          follower(3, "eve", false),
        ]}
      />,
    );
    const waiting = screen.getByRole("region", { name: "Waiting for you (1)" });
    expect(within(waiting).getByRole("link", { name: "@wren@social.example" })).toBeTruthy();
    expect(within(waiting).getByText("on social.example")).toBeTruthy();
    expect(
      within(waiting).getByRole("button", { name: "Accept @wren@social.example" }),
    ).toBeTruthy();
    expect(
      within(waiting).getByRole("button", { name: "Decline @wren@social.example" }),
    ).toBeTruthy();

    const accepted = screen.getByRole("region", { name: "2 followers" });
    const names = within(accepted)
      .getAllByRole("link")
      .map((link) => link.textContent);
    expect(names).toEqual(["@bob@social.example", "@eve@social.example"]);
    expect(within(accepted).queryByRole("button", { name: /Accept/ })).toBeNull();
  });

  it("asks before removing a follower, and says what the server refused", async () => {
    const { browser } = await server.member("remover");
    useBrowser(browser);
    renderWithQueries(<FollowerLists followers={[follower(999_999, "ghost", false)]} />);
    const user = userEvent.setup();

    await user.click(screen.getByRole("button", { name: "Remove @ghost@social.example" }));
    const dialog = await screen.findByRole("alertdialog", {
      name: "Remove @ghost@social.example?",
    });
    await user.click(within(dialog).getByRole("button", { name: "Remove" }));
    // No such follower of this member: the server answers 404, and the member is told.
    expect(await screen.findByText("Could not remove")).toBeTruthy();
  });
});
