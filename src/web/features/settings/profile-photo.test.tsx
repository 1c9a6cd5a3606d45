// @vitest-environment jsdom
// Profile Settings' photo, against Prism's real server: the member's photo shows, a file over
// 5 MB is refused beside the buttons without being sent, and removing the photo brings back the
// initials on the member's own colour, dark enough for white letters.
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { photoMessages } from "../../../contract/photo-messages.ts";
import type { CurrentUser } from "../../../contract/user.ts";
import { Avatar } from "../../components/ui/avatar.tsx";
import { serveRealApp, useBrowser } from "../../test/real-server.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { SettingsPage } from "./settings-page.tsx";

const server = serveRealApp();

afterEach(() => cleanup());

/** WCAG's contrast of white text on an `hsl(h s% l%)` background. */
function contrastWithWhite(hsl: string): number {
  const [h = 0, s = 0, l = 0] = (hsl.match(/[\d.]+/g) ?? []).map(Number);
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(8) + 0.0722 * channel(4);
  return 1.05 / (luminance + 0.05);
}

describe("A member's photo in Profile Settings", () => {
  it("shows the photo, refuses a file over 5 MB unsent, and removes it for the initials", async () => {
    const { browser } = await server.member("photo");
    const png = await sharp({
      create: { width: 40, height: 40, channels: 3, background: "#336699" },
    })
      .png()
      .toBuffer();
    const uploaded = await browser.fetch("/api/user/photo", {
      method: "PUT",
      headers: { "content-type": "image/png" },
      body: new Uint8Array(png),
    });
    expect(uploaded.status).toBe(200);
    const { profileImageUrl } = (await uploaded.json()) as CurrentUser;
    useBrowser(browser);
    renderWithQueries(<SettingsPage />);
    const user = userEvent.setup();

    const section = (await screen.findByRole("heading", { name: "Photo" })).closest("section");
    await waitFor(() =>
      expect(section?.querySelector("img")?.getAttribute("src")).toBe(profileImageUrl),
    );

    const input = screen.getByLabelText("Photo file", { selector: "input" });
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], "big.jpg", { type: "image/jpeg" });
    fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText(photoMessages.tooLarge)).toHaveProperty("role", "alert");
    expect((await browser.json<CurrentUser>("GET", "/api/user")).body.profileImageUrl).toBe(
      profileImageUrl,
    );

    await user.click(screen.getByRole("button", { name: "Remove photo" }));
    await waitFor(async () => {
      const me = await browser.json<CurrentUser>("GET", "/api/user");
      expect(me.body.profileImageUrl).toBeNull();
    });
    await waitFor(() => expect(section?.querySelector("img")).toBeNull());
    expect(section?.textContent).toContain("PH");
    expect(screen.queryByRole("button", { name: "Remove photo" })).toBeNull();
    expect(screen.getByRole("button", { name: "Upload a photo" })).toBeTruthy();
  });

  it("gives each username its own colour, the same every time, always dark enough for white", () => {
    const colour = (username: string) => {
      const { container } = renderWithQueries(
        <Avatar user={{ username, displayName: null }} size={32} />,
      );
      const span = container.querySelector("span[aria-hidden]") as HTMLElement;
      const background = span.style.background;
      cleanup();
      return background;
    };
    expect(colour("theo_lindqvist")).toBe(colour("theo_lindqvist"));
    const colours = new Set(["maya", "theo", "priya", "kwame", "rosa"].map(colour));
    expect(colours.size).toBeGreaterThan(3);
    for (let hue = 0; hue < 360; hue += 1) {
      expect(contrastWithWhite(`hsl(${hue} 60% 20%)`), `hue ${hue}`).toBeGreaterThanOrEqual(7);
    }
  });
});
