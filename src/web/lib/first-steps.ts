// A new account's first screen is its own page with the first prism's title ready for typing:
// whatever created the account says so through the router's location state, and the page reads it.
interface FirstStepsState {
  firstPrism: true;
}

/** The location state that asks the member's page to open on the first prism's title. */
export const firstStepsState: FirstStepsState = { firstPrism: true };

export function wantsFirstPrism(state: unknown): boolean {
  return (
    typeof state === "object" &&
    state !== null &&
    (state as Partial<FirstStepsState>).firstPrism === true
  );
}
