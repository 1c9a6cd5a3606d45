// What a share card shows, and the version its address carries.
import { describe, expect, it } from "vitest";
import { cardAlt, cardContent, cardPath, cardVersion } from "./cards.ts";

const ada = { username: "ada", firstName: "Ada", lastName: "Lovelace", displayName: null };
const prism = {
  title: "Notes on engines",
  content: "<p>The engine <em>weaves</em>.</p><p>Then rests.</p>",
};

describe("cardContent", () => {
  it("shows the member's name, the prism's title and its plain text on one line", () => {
    expect(cardContent(ada, prism)).toEqual({
      name: "Ada Lovelace",
      initials: "AD",
      username: "ada",
      title: "Notes on engines",
      excerpt: "The engine weaves. Then rests.",
    });
  });

  it("shows the share title on a page with no prism, and no excerpt for an empty prism", () => {
    expect(cardContent(ada, null)).toMatchObject({
      title: "Get to know Ada, really",
      excerpt: null,
    });
    expect(cardContent(ada, { title: "Empty", content: "<p></p>" }).excerpt).toBeNull();
  });

  it("cuts what would not fit between words", () => {
    const long = cardContent(
      { ...ada, firstName: "Ada ".repeat(30) },
      { title: "word ".repeat(40), content: `<p>${"text ".repeat(100)}</p>` },
    );
    expect(long.name.length).toBeLessThanOrEqual(49);
    expect(long.title).toMatch(/^(word ){12}word…$/);
    expect(long.excerpt?.length).toBeLessThanOrEqual(161);
    expect(long.excerpt).toMatch(/text…$/);
  });
});

describe("cardVersion and cardPath", () => {
  it("moves with anything the card shows, and only then", () => {
    const card = cardContent(ada, prism);
    expect(cardVersion(cardContent(ada, { ...prism }))).toBe(cardVersion(card));
    for (const changed of [
      cardContent({ ...ada, lastName: "King" }, prism),
      cardContent(ada, { ...prism, title: "Notes on looms" }),
      cardContent(ada, { ...prism, content: "<p>Other words.</p>" }),
    ]) {
      expect(cardVersion(changed)).not.toBe(cardVersion(card));
    }
  });

  it("addresses a page's card and a prism's card, versioned", () => {
    const card = cardContent(ada, prism);
    expect(cardPath("ada", null, card)).toBe(`/og/ada.png?v=${cardVersion(card)}`);
    expect(cardPath("ada", 42, card)).toBe(`/og/ada/42.png?v=${cardVersion(card)}`);
    expect(cardVersion(card)).toMatch(/^[0-9a-z]{1,7}$/);
  });

  it("describes the card in words", () => {
    expect(cardAlt(cardContent(ada, prism))).toBe(
      '"Notes on engines" by Ada Lovelace (@ada) on Prism',
    );
    expect(cardAlt(cardContent(ada, null))).toBe(
      "Get to know Ada, really: Ada Lovelace (@ada) on Prism",
    );
  });
});
