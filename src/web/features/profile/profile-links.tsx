// A member's own links at the top of their page (website, X, LinkedIn), each opening a new tab.
import { Globe } from "lucide-react";
import { isHttpUrl } from "../../../contract/url.ts";
import type { PublicUser } from "../../../contract/user.ts";

function LinkedInMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4 fill-current">
      <path d="M20.45 20.45h-3.56v-5.57c0-1.33-.02-3.04-1.85-3.04-1.86 0-2.14 1.45-2.14 2.94v5.67H9.35V9h3.41v1.56h.05c.48-.9 1.64-1.85 3.37-1.85 3.6 0 4.27 2.37 4.27 5.46v6.28ZM5.34 7.43a2.06 2.06 0 1 1 0-4.13 2.06 2.06 0 0 1 0 4.13ZM7.12 20.45H3.56V9h3.56v11.45ZM22.22 0H1.77C.79 0 0 .77 0 1.73v20.54C0 23.23.79 24 1.77 24h20.45c.98 0 1.78-.77 1.78-1.73V1.73C24 .77 23.2 0 22.22 0Z" />
    </svg>
  );
}

function XMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4 fill-current">
      <path d="M18.9 1.2h3.7l-8 9.2L24 22.8h-7.4l-5.8-7.6-6.6 7.6H.5L9 13 0 1.2h7.6l5.2 6.9 6.1-6.9Zm-1.3 19.4h2L6.5 3.3H4.3l13.3 17.3Z" />
    </svg>
  );
}

export function ProfileLinks({ owner }: { owner: PublicUser }) {
  const links = [
    {
      href: owner.websiteUrl,
      label: "Website",
      icon: <Globe className="size-4" aria-hidden="true" />,
      verified: owner.websiteVerified,
    },
    { href: owner.twitterUrl, label: "X", icon: <XMark /> },
    { href: owner.linkedinUrl, label: "LinkedIn", icon: <LinkedInMark /> },
    // Only http(s) links are ever stored; one that is not is not shown either.
  ].filter((link): link is typeof link & { href: string } => isHttpUrl(link.href ?? ""));

  if (links.length === 0) return null;
  return (
    <ul className="mt-3 flex flex-wrap items-center justify-center gap-2 sm:justify-start">
      {links.map((link) => (
        <li key={link.label} className="inline-flex items-center gap-1.5">
          <a
            href={link.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            aria-label={`${link.label} (opens in a new tab)`}
            className="inline-flex size-9 items-center justify-center rounded-full border border-border text-muted-foreground transition-colors hover:bg-muted hover:text-foreground"
          >
            {link.icon}
          </a>
          {link.verified ? (
            <span
              role="img"
              aria-label="Verified: this website links back here"
              className="text-xs"
            >
              ✓ Verified
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
