// Sharing a page or a prism: its address, copied to the clipboard, and a toast that says so.
import { Link2 } from "lucide-react";
import { Button } from "../../components/ui/button.tsx";
import { copyLink } from "../../lib/clipboard.ts";

/** A "Copy link" button for `path` on this site; `label` says what is shared, for screen readers. */
export function CopyLinkButton({
  path,
  label,
  variant = "outline",
}: {
  path: string;
  label?: string;
  variant?: "outline" | "ghost";
}) {
  return (
    <Button
      variant={variant}
      size="sm"
      aria-label={label}
      onClick={() => void copyLink(`${window.location.origin}${path}`)}
    >
      <Link2 aria-hidden="true" /> Copy link
    </Button>
  );
}
