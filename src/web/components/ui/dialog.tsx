// Modal dialogs and the side sheet, on Radix: focus trapped, Escape and outside click close them.
import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "../../lib/cn.ts";
import { useReturnFocus } from "../../lib/return-focus.ts";

export const Dialog = DialogPrimitive.Root;
export const DialogTitle = DialogPrimitive.Title;
export const DialogDescription = DialogPrimitive.Description;
export const DialogClose = DialogPrimitive.Close;

const overlay = "fixed inset-0 z-50 bg-black/40 backdrop-blur-[1px]";

function CloseButton() {
  return (
    <DialogPrimitive.Close
      aria-label="Close"
      className="absolute right-4 top-4 inline-flex size-8 cursor-pointer items-center justify-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <X className="size-4" aria-hidden="true" />
    </DialogPrimitive.Close>
  );
}

/**
 * The overlay and the panel, with its close button; `base` places and shapes the panel. As it
 * closes, the focus goes back to what had it when the panel opened (the control that opened it,
 * Radix's `Trigger` or not), unless the caller's `onCloseAutoFocus` places it.
 */
function Panel({
  base,
  className,
  children,
  onOpenAutoFocus,
  onCloseAutoFocus,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { base: string }) {
  const focus = useReturnFocus({ onOpenAutoFocus, onCloseAutoFocus });
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlay} />
      <DialogPrimitive.Content className={cn(base, className)} {...focus} {...props}>
        {children}
        <CloseButton />
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogContent(props: ComponentProps<typeof DialogPrimitive.Content>) {
  return (
    <Panel
      base="fixed left-1/2 top-1/2 z-50 grid max-h-[calc(100vh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-2xl border border-border bg-background p-6 shadow-xl"
      {...props}
    />
  );
}

/** A panel that slides in from the right edge. */
export function SheetContent(
  props: ComponentProps<typeof DialogPrimitive.Content> & { children: ReactNode },
) {
  return (
    <Panel
      base="fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col border-l border-border bg-background shadow-2xl"
      {...props}
    />
  );
}
