// Toasts with the spec's durations: 5 s by default, 3 s for most confirmations, 2 s for quick ones.
import { toast } from "sonner";

export const toastDuration = { default: 5000, short: 3000, quick: 2000 } as const;

export function toastSuccess(
  title: string,
  description?: string,
  duration: number = toastDuration.short,
) {
  toast.success(title, { description, duration });
}

export function toastError(
  title: string,
  description?: string,
  duration: number = toastDuration.default,
) {
  toast.error(title, { description, duration });
}
