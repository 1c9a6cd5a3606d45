// The diagnostics pages' requests: the database tests, the simulated failures, and the API tester.
import { useMutation } from "@tanstack/react-query";
import type { DiagnosticResult, RegistrationTestInput } from "../../../contract/diagnostics.ts";
import { ApiError, api } from "../../lib/api.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";

export type DiagnosticTest =
  | { kind: "connectivity" }
  | { kind: "registration"; input: RegistrationTestInput }
  | { kind: "reset" };

function runTest(test: DiagnosticTest): Promise<DiagnosticResult> {
  switch (test.kind) {
    case "connectivity":
      return api.get<DiagnosticResult>("/api/db-check");
    case "registration":
      return api.post<DiagnosticResult>("/api/db-check/registration-flow", test.input);
    case "reset":
      return api.post<DiagnosticResult>("/api/db-check/reset");
  }
}

/** What the results box shows for a failed request: the status and what the server said. */
function describeFailure(error: Error) {
  if (!(error instanceof ApiError)) return { status: "error", message: error.message };
  return {
    status: "error",
    httpStatus: error.status,
    message: error.message,
    ...(error.errors ? { errors: error.errors } : {}),
  };
}

/** Runs one database test; `onResult` receives what the results box shows. */
export function useDiagnosticTest(onResult: (result: unknown) => void) {
  return useMutation<DiagnosticResult, Error, DiagnosticTest>({
    mutationFn: runTest,
    onSuccess: (result) => {
      onResult(result);
      if (result.status === "ok") toastSuccess("Test Complete", result.message);
      else toastError("Test Failed", result.error ?? result.message);
    },
    onError: (error) => {
      onResult(describeFailure(error));
      toastError("Test Failed", error.message);
    },
  });
}

export type SimulatedFailure = "not-found" | "server-error";

/** Asks for a failing resource the way a page asks for its main data: the answer leads to /error. */
export function useSimulatedFailure() {
  return useMutation({
    mutationFn: (which: SimulatedFailure) => api.get(`/api/demo/${which}`, { errorPage: true }),
  });
}

export interface ApiTestResult {
  status: number;
  body: unknown;
}

/** Sends a GET and hands over its answer, whatever it is, instead of leaving for /error. */
export function useApiTest(onResult: (result: ApiTestResult) => void) {
  return useMutation({
    mutationFn: async (path: string): Promise<ApiTestResult> => {
      try {
        return { status: 200, body: await api.get<unknown>(path) };
      } catch (cause) {
        return cause instanceof ApiError
          ? {
              status: cause.status,
              body: { message: cause.message, ...(cause.errors ? { errors: cause.errors } : {}) },
            }
          : { status: 0, body: { message: (cause as Error).message } };
      }
    },
    onSuccess: onResult,
  });
}
