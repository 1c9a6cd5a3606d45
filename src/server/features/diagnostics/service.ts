// Diagnostics: is the database reachable, does registration work end to end (rolled back), and
// recycling the database connection.
import { registerSchema } from "../../../contract/auth.ts";
import {
  type DiagnosticResult,
  diagnosticMessages,
  type RegistrationTestInput,
} from "../../../contract/diagnostics.ts";
import type { Database } from "../../db/client.ts";
import { HttpError } from "../../http-error.ts";
import { registerMember } from "../users/service.ts";

/** Thrown inside the registration test's transaction so that Drizzle rolls it back. */
class RollBack extends Error {
  constructor(readonly user: { username: string; email: string }) {
    super("diagnostic rollback");
  }
}

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

/**
 * Runs the real registration in a transaction that is always rolled back, so no member is left
 * behind. Invalid input and taken names come back as an "error" result with the form's message;
 * anything else (the database, a bug) is thrown for the caller.
 */
export async function testRegistration(
  database: Database,
  input: RegistrationTestInput,
): Promise<DiagnosticResult> {
  const parsed = registerSchema.safeParse(input);
  if (!parsed.success) {
    return {
      status: "error",
      message: diagnosticMessages.registrationRejected,
      error: parsed.error.issues[0]?.message ?? "Invalid input",
    };
  }
  try {
    await database.db.transaction(async (tx) => {
      const user = await registerMember(tx, parsed.data);
      throw new RollBack({ username: user.username, email: user.email });
    });
  } catch (error) {
    if (error instanceof RollBack) {
      return { status: "ok", message: diagnosticMessages.registrationWorks, user: error.user };
    }
    if (error instanceof HttpError && error.statusCode < 500) {
      return {
        status: "error",
        message: diagnosticMessages.registrationRejected,
        error: error.message,
      };
    }
    throw error;
  }
  throw new Error("the registration test's transaction was not rolled back");
}
