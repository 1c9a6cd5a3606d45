// A reader's flag on a published response: its own module, loaded with the flag dialog only.
import { useMutation } from "@tanstack/react-query";
import type { Flag, FlagInput } from "../../../contract/annotations.ts";
import { api } from "../../lib/api.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";

/**
 * A reader flags a published response (again: their reason and note replace the first). Nothing
 * the page shows changes; the reader is thanked.
 */
export function useFlagResponse(annotationId: number) {
  return useMutation({
    mutationFn: (input: FlagInput) =>
      api.post<Flag>(`/api/annotations/${annotationId}/flag`, input),
    onSuccess: () =>
      toastSuccess("Flag sent", "Thank you. The prism's owner will look at this response."),
    onError: (error) =>
      toastError("Failed to send flag", error.message || "Please try again in a few minutes."),
  });
}
