// Node's own built-ins, kept before anything else loads. The bundled build of jsonld that Fedify
// loads brings core-js, which on Node 20's V8 replaces three built-ins with JavaScript of its own
// for the whole process: `Array.prototype.push`, `JSON.stringify` and
// `Function.prototype.toString` (what it fixes is not reached by Prism). Every push and every
// JSON text in the server, its libraries and its database driver then ran several times slower.
// app.ts imports this module first, and the server tests load it before any test file;
// federation.ts puts the built-ins back once Fedify is loaded.
const kept = {
  push: Array.prototype.push,
  stringify: JSON.stringify,
  toString: Function.prototype.toString,
};

function putBack(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: false,
    configurable: true,
  });
}

/** Puts back the built-ins a library replaced since this module loaded. */
export function restoreNatives(): void {
  putBack(Array.prototype, "push", kept.push);
  putBack(JSON, "stringify", kept.stringify);
  putBack(Function.prototype, "toString", kept.toString);
}
