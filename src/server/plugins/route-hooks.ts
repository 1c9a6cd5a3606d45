// Hooks that belong to some routes only, added from an onRoute hook: the routes that do not
// declare what they are for never pass through them.

/** A route's own hooks of one kind, as a list, to add one more after them. */
export const hooksOf = <Hook>(hooks: Hook | Hook[] | undefined): Hook[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
