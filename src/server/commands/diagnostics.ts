// Diagnostics: the real registration, rehearsed in a transaction that is always rolled back.
import { registerSchema } from "../../contract/auth.ts";
import {
  type DiagnosticResult,
  diagnosticMessages,
  type RegistrationTestInput,
} from "../../contract/diagnostics.ts";
import { registerUser } from "../features/users/service.ts";
import { HttpError } from "../http-error.ts";
import { commit, type WriteContext } from "./write.ts";

/** Thrown inside the registration test's transaction so that it is rolled back. */
class RollBack extends Error {
  constructor(readonly user: { username: string; email: string }) {
    super("diagnostic rollback");
  }
}

/**
 * Runs the real registration in a transaction that is always rolled back, so no member is left
 * behind. Invalid input and taken names come back as an "error" result with the form's message;
 * anything else (the database, a bug) is thrown for the caller.
 */
export async function testRegistration(
  write: WriteContext<null>,
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
    await commit(write, async (tx) => {
      const user = await registerUser(tx, parsed.data);
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
