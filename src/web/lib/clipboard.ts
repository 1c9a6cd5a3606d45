// Copying an address to the clipboard, and a toast that says so.
import { toastError, toastSuccess } from "./toast.ts";

export async function copyLink(url: string) {
  try {
    await navigator.clipboard.writeText(url);
    toastSuccess("Link copied", url);
  } catch {
    // The browser refused (no permission, or not a secure page): the link is shown to copy by hand.
    toastError("Could not copy the link", url);
  }
}
