// Profile Settings' photo: the member's face as others see it, a button to choose a new one (sent
// as it is: the server makes it square and strips its metadata) and one to remove it. A refusal
// shows beside the buttons as well as in its toast.
import { ImageUp, Trash2 } from "lucide-react";
import { useId, useRef, useState } from "react";
import { photoMessages, photoTypes } from "../../../contract/photo-messages.ts";
import { photoLimits } from "../../../contract/photos.ts";
import type { CurrentUser } from "../../../contract/user.ts";
import { Avatar } from "../../components/ui/avatar.tsx";
import { Button } from "../../components/ui/button.tsx";
import { usePhoto } from "./settings-queries.ts";

export function ProfilePhoto({ user }: { user: CurrentUser }) {
  const input = useRef<HTMLInputElement>(null);
  const { upload, remove } = usePhoto();
  const [tooLarge, setTooLarge] = useState(false);
  const hintId = useId();
  const errorId = useId();
  const photo = user.profileImageUrl;
  const ownPhoto = photo?.startsWith("/api/") ?? false;
  const pending = upload.isPending || remove.isPending;
  const failure = tooLarge
    ? photoMessages.tooLarge
    : (upload.error?.message ?? remove.error?.message ?? null);

  function chosen(file: File | undefined) {
    if (!file) return;
    upload.reset();
    remove.reset();
    // Refused here without sending 5 MB for nothing; the server holds the same limit.
    setTooLarge(file.size > photoLimits.uploadBytes);
    if (file.size <= photoLimits.uploadBytes) upload.mutate(file);
  }

  return (
    <section aria-labelledby="photo-heading" className="flex flex-wrap items-center gap-5">
      <Avatar user={user} size={80} className="size-20 text-2xl" />
      <div className="min-w-0 flex-1">
        <h2 id="photo-heading" className="font-medium">
          Photo
        </h2>
        <p id={hintId} className="mt-1 text-sm text-muted-foreground">
          {photo && !ownPhoto
            ? "Your Google picture, until you choose a photo of your own. "
            : null}
          A JPEG, PNG, WebP, GIF or AVIF image of at most 5 MB. Prism makes it square and removes
          what the file says of where and how it was taken.
        </p>
        <div className="mt-3 flex flex-wrap gap-2">
          <input
            ref={input}
            type="file"
            accept={photoTypes.join(",")}
            hidden
            aria-label="Photo file"
            onChange={(event) => {
              chosen(event.target.files?.[0]);
              event.target.value = "";
            }}
          />
          <Button
            type="button"
            variant="outline"
            disabled={pending}
            aria-describedby={failure ? `${hintId} ${errorId}` : hintId}
            onClick={() => input.current?.click()}
          >
            <ImageUp aria-hidden="true" />
            {upload.isPending ? "Uploading..." : photo ? "Choose another photo" : "Upload a photo"}
          </Button>
          {photo ? (
            <Button
              type="button"
              variant="ghost"
              disabled={pending}
              onClick={() => {
                setTooLarge(false);
                upload.reset();
                remove.mutate();
              }}
            >
              <Trash2 aria-hidden="true" />
              {remove.isPending ? "Removing..." : "Remove photo"}
            </Button>
          ) : null}
        </div>
        {failure ? (
          <p id={errorId} role="alert" className="mt-2 text-sm text-destructive">
            {failure}
          </p>
        ) : null}
      </div>
    </section>
  );
}
