// What the test run's global setup provides to every test file (`inject`), by name.

/** The name under which the global setup provides the path of the migrated PGlite's files. */
export const PGLITE_IMAGE = "pgliteImage";

declare module "vitest" {
  interface ProvidedContext {
    [PGLITE_IMAGE]: string;
  }
}
