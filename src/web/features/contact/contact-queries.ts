// Sending a message to the Prism team.
import { useMutation } from "@tanstack/react-query";
import type { ContactInput } from "../../../contract/contact.ts";
import { api } from "../../lib/api.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";

export function useSendMessage() {
  return useMutation({
    mutationFn: (input: ContactInput) => api.post<{ id: number }>("/api/contact", input),
    onSuccess: () => toastSuccess("Message sent!"),
    onError: () =>
      toastError("Error sending message", "Please try again later or email us directly."),
  });
}
