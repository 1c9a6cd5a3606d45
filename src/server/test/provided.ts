// What the test run's global setup provides to every test file (`inject`), by name.

/** The name under which the global setup provides the path of the migrated PGlite's files. */
export const PGLITE_IMAGE = "pgliteImage";
/** The name under which the web project's global setup provides the app host's control URL. */
export const APP_HOST = "appHost";

declare module "vitest" {
  interface ProvidedContext {
    [PGLITE_IMAGE]: string;
    [APP_HOST]: string;
  }
}
