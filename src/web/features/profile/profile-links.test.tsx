// @vitest-environment jsdom
// The links at the top of a member's page: a website that links back is marked Verified, named
// for screen readers as linking back; one that does not, and the other links, are not.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { PublicUser } from "../../../contract/user.ts";
import { ProfileLinks } from "./profile-links.tsx";

const owner: PublicUser = {
  id: 1,
  username: "rosalind",
  firstName: "Rosalind",
  lastName: "Franklin",
  displayName: null,
  websiteUrl: "https://rosalind.example/",
  twitterUrl: "https://x.com/rosalind",
  linkedinUrl: null,
  profileImageUrl: null,
  websiteVerified: false,
  membersOnly: false,
  listed: true,
};

const verifiedName = "Verified: this website links back here";

afterEach(cleanup);

describe("ProfileLinks", () => {
  it("marks a website that links back as Verified, beside the website's link", () => {
    render(<ProfileLinks owner={{ ...owner, websiteVerified: true }} />);
    const badge = screen.getByRole("img", { name: verifiedName });
    expect(badge.textContent).toBe("✓ Verified");
    const item = badge.closest("li");
    expect(item?.querySelector("a")?.getAttribute("href")).toBe("https://rosalind.example/");
    expect(screen.getAllByRole("img", { name: /^Verified/ })).toHaveLength(1);
  });

  it("marks nothing when the website does not link back", () => {
    render(<ProfileLinks owner={owner} />);
    expect(screen.getByRole("link", { name: "Website (opens in a new tab)" })).toBeTruthy();
    expect(screen.queryByRole("img", { name: verifiedName })).toBeNull();
    expect(screen.queryByText(/Verified/)).toBeNull();
  });
});
