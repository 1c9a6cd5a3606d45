// Who may read a prism, as its owner chose. Free of the schema library, so a reading page can
// label a prism without loading it.

/**
 * Everyone (the default: everything the spec says of a prism holds), the signed-in members who
 * share a team with its owner, or its owner alone (a draft).
 */
export const audienceChoices = ["public", "team", "private"] as const;
export type Audience = (typeof audienceChoices)[number];

/** What the owner reads of each choice: in the editor, and as the label on their own page. */
export const audienceLabels: Record<Audience, string> = {
  public: "Public",
  team: "Team",
  private: "Only me",
};

/** What each choice means, beside it in the editor. */
export const audienceHints: Record<Audience, string> = {
  public: "Anyone with the link, and explore.",
  team: "Signed-in members who share a team with you.",
  private: "A draft only you can see.",
};
