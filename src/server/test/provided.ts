// What the test run's global setup provides to every test file (`inject`), by name.

/** The name under which the global setup provides the path of the migrated PGlite's files. */
export const PGLITE_IMAGE = "pgliteImage";
/**
 * The name under which the server tests' global setup provides the folder of a built web app's
 * stand-in (its index.html): the test apps serve pages whether or not the web app was built.
 */
export const WEB_ROOT = "webRoot";
/** The name under which the web project's global setup provides the app host's control URL. */
export const APP_HOST = "appHost";

declare module "vitest" {
  interface ProvidedContext {
    [PGLITE_IMAGE]: string;
    [WEB_ROOT]: string;
    [APP_HOST]: string;
  }
}
