import { describe, expect, it } from "vitest";
import { prismInputSchema } from "./prisms.ts";
import { slugify } from "./slug.ts";

describe("slugify", () => {
  it("lowercases, drops punctuation and turns spaces into hyphens", () => {
    expect(slugify("How I give feedback")).toBe("how-i-give-feedback");
    expect(slugify("  What's my best hour? (Mornings!)  ")).toBe("whats-my-best-hour-mornings");
    expect(slugify("Café & crème — brûlée")).toBe("cafe-creme-brulee");
    expect(slugify("one  -  two")).toBe("one-two");
  });
});

describe("prismInputSchema", () => {
  it("trims the title and refuses a blank or overlong one", () => {
    expect(prismInputSchema.parse({ title: "  Hi  ", content: "" }).title).toBe("Hi");
    expect(prismInputSchema.safeParse({ title: "   ", content: "" }).success).toBe(false);
    expect(prismInputSchema.safeParse({ title: "x".repeat(201), content: "" }).success).toBe(false);
    expect(
      prismInputSchema.safeParse({ title: "ok", content: "é".repeat(26 * 1024) }).success,
    ).toBe(false);
  });
});
