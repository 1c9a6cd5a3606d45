// What Prism says about readers' flags and the owner's rules for responses, kept apart from the
// messages every reading page loads: only the flag dialog, the review page, Catalyst and the
// server need them.

/** Different people's flags that bring a response to the admins (the Annotations tab's Flagged filter). */
export const FLAGS_FOR_ADMINS = 3;

/** The reasons a reader may flag a published response for, as the flag dialog and the owner read them. */
export const flagReasonLabels = {
  spam: "Spam",
  abuse: "Abuse or harassment",
  private: "Private information",
  other: "Something else",
} as const;

export const flagMessages = {
  flagOwn: "You can't flag your own response",
  flagUnpublished: "Only a published response can be flagged",
  flagsTooMany: "You're flagging quickly. Please wait a few minutes and try again.",
  /** An anonymous response to a member who takes members' responses only (Profile Settings). */
  anonymousMembersOnly:
    "This member takes responses from signed-in members only. Sign in to respond.",
} as const;
