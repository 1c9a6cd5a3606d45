// Under the website field in Profile Settings: whether the website links back to the member's
// Prism page with rel="me" (then their page shows it as verified), and a way to check again.

import type { CurrentUser } from "../../../contract/user.ts";
import { Button } from "../../components/ui/button.tsx";
import { useCheckWebsite } from "./settings-queries.ts";

export function WebsiteCheck({ user }: { user: CurrentUser }) {
  const check = useCheckWebsite();
  if (user.websiteUrl === null) return null;
  const profileUrl = `${window.location.origin}/${user.username}`;
  return (
    <div className="-mt-3 flex flex-wrap items-center gap-x-3 gap-y-2 text-xs text-muted-foreground">
      <p role="status" className="min-w-0 break-words">
        {user.websiteVerified ? (
          <span className="inline-flex items-center gap-1 text-foreground">
            Verified: your website links back to your Prism page.
          </span>
        ) : (
          <>
            {user.websiteCheckedAt === null ? "Not checked yet." : "Not verified."} To show your
            website as verified, link to <span className="break-all font-mono">{profileUrl}</span>{" "}
            from it with <code>rel="me"</code>.
          </>
        )}
      </p>
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={check.isPending}
        onClick={() => check.mutate()}
      >
        {check.isPending ? "Checking..." : "Check again"}
      </Button>
    </div>
  );
}
