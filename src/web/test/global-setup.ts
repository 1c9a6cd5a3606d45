// The web tests' real servers (real-server.ts) start from a migrated PGlite, made once a run as the
// server tests' is, rather than each making and migrating a cluster of its own.
export { makePgliteImage as setup } from "../../server/test/global-setup.ts";
