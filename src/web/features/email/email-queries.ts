// E-mail notifications: the unsubscribe that the link of every message leads to.
import { useMutation } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

/** Turns e-mail notifications off for the member whose token the link carries. */
export function useUnsubscribe(token: string) {
  return useMutation({
    mutationFn: () =>
      api.post<{ message: string }>(`/api/email/unsubscribe?token=${encodeURIComponent(token)}`),
  });
}
