// How Prism names a member, for people and for link previews: one set of rules for the server
// (notifications, annotations) and the web app (its pages and their heads). A member has one name
// (`memberName`); a share text calls them by their first name, and their avatar shows initials.
export const brand = "Prism";

export interface Person {
  username: string;
  firstName: string;
  lastName: string;
  displayName: string | null;
}

/**
 * How an anonymous visitor's chosen name is shown: marked as a visitor's, so that nobody can pass
 * for a member or for Prism itself by typing their name. Null when they gave none.
 */
export function visitorName(chosen: string | null | undefined): string | null {
  const name = chosen?.trim();
  return name ? `${name} (visitor)` : null;
}

/**
 * A member's name, the one way Prism names them on every screen, page head, feed, card, mail and
 * notification: the spec's profile title, their first and last name when both exist, else their
 * display name, else their username (docs/decisions/0011-one-name-and-a-face.md).
 */
export function memberName(person: Person): string {
  const first = person.firstName.trim();
  const last = person.lastName.trim();
  if (first && last) return `${first} ${last}`;
  return person.displayName?.trim() || person.username;
}

/** How a share text addresses the member: first name, else display name, else username. */
export function givenName(person: Person): string {
  return person.firstName.trim() || person.displayName?.trim() || person.username;
}

/** The avatar's letters: the first two of the display name or username, uppercased. */
export function initials(person: Pick<Person, "displayName" | "username">): string {
  const source = person.displayName?.trim() || person.username;
  return source.replace(/\s+/g, "").slice(0, 2).toUpperCase();
}

export function profilePageTitle(person: Person): string {
  return `${memberName(person)} (@${person.username}) | ${brand}`;
}

export function shareTitle(person: Person): string {
  return `Get to know ${givenName(person)}, really`;
}

/** Built from the name and the first prism's title. */
export function profileDescription(
  person: Person,
  firstPrismTitle: string | null,
  prismCount: number,
): string {
  if (!firstPrismTitle) return `${memberName(person)} is on ${brand}.`;
  const more = prismCount > 1 ? " and more" : "";
  return `Get to know ${givenName(person)}: "${firstPrismTitle}"${more} on ${brand}.`;
}
