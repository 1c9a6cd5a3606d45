// A member's face: their photo (Prism's, or Google's picture), else their initials (the first two
// letters of the display name or username, uppercased) on a colour of their own: a hue from their
// username, so that it is the same on every screen. Every hue at this saturation and lightness is
// dark enough for white text (WCAG AAA, at least 7:1, as axe checks it).
import { initials, type Person } from "../../../contract/names.ts";
import { photoSource } from "../../../contract/photos.ts";
import { cn } from "../../lib/cn.ts";

export function Avatar({
  user,
  size,
  className,
}: {
  user: Pick<Person, "displayName" | "username"> & { profileImageUrl?: string | null };
  /** Its side in CSS pixels (its class sets it), which chooses the image's size. */
  size: number;
  className?: string;
}) {
  const photo = user.profileImageUrl;
  let hue = 0;
  for (const char of user.username) hue = (hue * 31 + char.charCodeAt(0)) % 360;
  return (
    <span
      aria-hidden
      style={{ background: `hsl(${hue} 60% 20%)` }}
      className={cn(
        "inline-flex shrink-0 select-none items-center justify-center overflow-hidden rounded-full font-semibold text-white",
        className,
      )}
    >
      {photo ? (
        <img
          src={photoSource(photo, size)}
          alt=""
          referrerPolicy="no-referrer"
          className="size-full object-cover"
        />
      ) : (
        initials(user)
      )}
    </span>
  );
}
