// Who may respond to a prism, and whether a reader is among them. Free of the schema library, so
// a reading page can decide without loading it.

/** Anyone (the default), signed-in members only, or no one. */
export const responderChoices = ["anyone", "members", "no-one"] as const;
export type Responders = (typeof responderChoices)[number];

/** Whether a prism's choice of responders admits this reader (signed in or not). */
export function respondersAdmit(responders: Responders, signedIn: boolean): boolean {
  return responders === "anyone" || (responders === "members" && signedIn);
}
