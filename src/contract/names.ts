// How Prism names a member, for people and for link previews: one set of rules for the server
// (notifications, annotations) and the web app (its pages and their heads).
export const brand = "Prism";

export interface Person {
  username: string;
  firstName: string;
  lastName: string;
  displayName: string | null;
}

/** How a member is shown beside what they did: display name, else full name, else username. */
export function displayName(person: Person): string {
  return (
    person.displayName?.trim() ||
    `${person.firstName.trim()} ${person.lastName.trim()}`.trim() ||
    person.username
  );
}

/**
 * How an anonymous visitor's chosen name is shown: marked as a visitor's, so that nobody can pass
 * for a member or for Prism itself by typing their name. Null when they gave none.
 */
export function visitorName(chosen: string | null | undefined): string | null {
  const name = chosen?.trim();
  return name ? `${name} (visitor)` : null;
}

/** The page's title name: first and last name when both exist, else display name, else username. */
export function fullName(person: Person): string {
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
  return `${fullName(person)} (@${person.username}) | ${brand}`;
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
  if (!firstPrismTitle) return `${fullName(person)} is on ${brand}.`;
  const more = prismCount > 1 ? " and more" : "";
  return `Get to know ${givenName(person)}: "${firstPrismTitle}"${more} on ${brand}.`;
}
