// Password reset: asking for a link, and choosing a new password with it.
import { useMutation } from "@tanstack/react-query";
import type {
  PasswordResetFormInput,
  PasswordResetRequestInput,
} from "../../../contract/password-reset.ts";
import { api } from "../../lib/api.ts";

export function useRequestReset() {
  return useMutation({
    mutationFn: (input: PasswordResetRequestInput) =>
      api.post<{ message: string }>("/api/password-reset/request", input),
  });
}

/** Sets the new password with the token from the e-mailed link. */
export function useConfirmReset(token: string) {
  return useMutation({
    mutationFn: ({ password }: PasswordResetFormInput) =>
      api.post<{ message: string }>("/api/password-reset/confirm", { token, password }),
  });
}
