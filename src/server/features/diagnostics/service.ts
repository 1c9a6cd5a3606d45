// Diagnostics: is the database reachable, and recycling the database connection. Whether
// registration works end to end is a command's (commands/diagnostics.ts).
import { type DiagnosticResult, diagnosticMessages } from "../../../contract/diagnostics.ts";
import type { Database } from "../../db/client.ts";

const describe = (error: unknown) =>
  error instanceof Error ? error.message || error.name : String(error);

/** Pings the database. "ok", or "error" with the driver's reason. */
export async function checkDatabase(
  database: Database,
  message: string = diagnosticMessages.connected,
): Promise<DiagnosticResult> {
  try {
    await database.ping();
    return { status: "ok", message };
  } catch (error) {
    return {
      status: "error",
      message: diagnosticMessages.connectionFailed,
      error: describe(error),
    };
  }
}

/** Closes the database connection and opens a fresh one (no data is touched), then pings it. */
export async function resetConnection(database: Database): Promise<DiagnosticResult> {
  try {
    await database.recycle();
  } catch (error) {
    return { status: "error", message: diagnosticMessages.resetFailed, error: describe(error) };
  }
  return checkDatabase(database, diagnosticMessages.connectionReset);
}
