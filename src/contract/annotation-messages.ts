// What Prism says about responses, in the forms and from the server. Free of the schema library,
// so a reading page can show them without loading it; the counts are written when a message is
// read, since the first number a page formats loads the browser's language data.
import { limits } from "./limits.ts";

export const annotationMessages = {
  textRequired: "Please write a response",
  textTooLong: `Responses must be at most ${limits.annotationMax} characters`,
  selectionEmpty: "Select some text to respond to",
  get selectionTooLong() {
    return `Select at most ${limits.selectionMax.toLocaleString("en")} characters to respond to`;
  },
  selectionRange: "The selection must end after it starts",
  selectionMismatch: "The selected text does not match the prism. Please select it again.",
  alreadyDecided: "This annotation has already been decided",
  tooMany: "You're responding quickly. Please wait a few minutes and try again.",
  membersOnly: "Only members can respond to this prism. Sign in to respond.",
  closed: "This prism is not open to responses.",
  statusTooMany: "You're checking on responses quickly. Please wait a few minutes and try again.",
  replyRequired: "Please write a reply",
  get replyTooLong() {
    return `Replies must be at most ${limits.replyMax.toLocaleString("en")} characters`;
  },
  replyOwnerOnly: "Only the prism's owner can reply to its responses",
  repliesTooMany: "You're replying quickly. Please wait a minute and try again.",
  bulkNone: "Select at least one response",
  bulkTooMany: `Decide on at most ${limits.bulkDecisionsMax} responses at once`,
  bulkRepeated: "Name each response once",
  bulkOwnerOnly: "Only the prism's owner can review its responses here",
  bulkNotPending:
    "Some of these responses have already been decided. Reload to see where they stand.",
  reviewTooMany: "You're deciding quickly. Please wait a minute and try again.",
  replyRejected: "A response that was not approved can't be answered. Approve it first.",
} as const;
