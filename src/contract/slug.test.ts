// A prism's address carries its slug, and always leads to that prism.
import { describe, expect, it } from "vitest";
import { prismPath, slugify } from "./slug.ts";

describe("slugify", () => {
  it("lowercases, drops punctuation and turns spaces into hyphens", () => {
    expect(slugify("What's my best hour?")).toBe("whats-my-best-hour");
    expect(slugify("  Café — naïve  ideas ")).toBe("cafe-naive-ideas");
  });
});

describe("prismPath", () => {
  const prisms = [
    { id: 1, title: "How I work" },
    { id: 2, title: "How I work!" },
    { id: 3, title: "???" },
    { id: 4, title: "Ελληνικά" },
  ];

  it("is the owner's page and the prism's slug", () => {
    expect(prismPath("ada", { id: 1, title: "How I work" }, prisms)).toBe("/ada/how-i-work");
    expect(prismPath("ada", { id: 9, title: "Alone" })).toBe("/ada/alone");
  });

  it("encodes a slug in another script", () => {
    expect(prismPath("ada", { id: 4, title: "Ελληνικά" }, prisms)).toBe(
      `/ada/${encodeURIComponent("ελληνικα")}`,
    );
  });

  it("falls back to the id when the slug is empty or opens an earlier prism", () => {
    expect(prismPath("ada", { id: 2, title: "How I work!" }, prisms)).toBe("/ada?prism=2");
    expect(prismPath("ada", { id: 3, title: "???" }, prisms)).toBe("/ada?prism=3");
  });
});
