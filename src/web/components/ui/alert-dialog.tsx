// A confirmation dialog: title, description, Cancel and one action; and its panel, for dialogs
// that ask for more than a click.
import * as AlertDialogPrimitive from "@radix-ui/react-alert-dialog";
import type { ReactNode } from "react";
import { useReturnFocus } from "../../lib/return-focus.ts";
import { buttonVariants } from "./button.tsx";

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  actionLabel,
  onConfirm,
  destructive = false,
  children,
}: {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: string;
  description: string;
  actionLabel: string;
  onConfirm: () => void;
  destructive?: boolean;
  /** The button that opens the dialog, when it is not controlled. */
  children?: ReactNode;
}) {
  return (
    <AlertDialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      {children ? (
        <AlertDialogPrimitive.Trigger asChild>{children}</AlertDialogPrimitive.Trigger>
      ) : null}
      <AlertDialogPanel title={title} description={description}>
        <div className="flex justify-end gap-2">
          <AlertDialogCancel />
          <AlertDialogPrimitive.Action
            className={buttonVariants({ variant: destructive ? "destructive" : "default" })}
            onClick={onConfirm}
          >
            {actionLabel}
          </AlertDialogPrimitive.Action>
        </div>
      </AlertDialogPanel>
    </AlertDialogPrimitive.Root>
  );
}

/**
 * The overlay and the panel with its title and description, then `children` (its actions). On
 * closing, focus returns to what had it when the panel opened (a dialog opened from a menu, with
 * no trigger of its own, returns it to the menu's button).
 */
export function AlertDialogPanel({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  const focus = useReturnFocus();
  return (
    <AlertDialogPrimitive.Portal>
      <AlertDialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
      <AlertDialogPrimitive.Content
        {...focus}
        className="fixed left-1/2 top-1/2 z-50 grid max-h-[calc(100vh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-2xl border border-border bg-background p-6 shadow-xl"
      >
        <AlertDialogPrimitive.Title className="text-lg font-semibold">
          {title}
        </AlertDialogPrimitive.Title>
        <AlertDialogPrimitive.Description className="text-sm text-muted-foreground">
          {description}
        </AlertDialogPrimitive.Description>
        {children}
      </AlertDialogPrimitive.Content>
    </AlertDialogPrimitive.Portal>
  );
}

export function AlertDialogCancel() {
  return (
    <AlertDialogPrimitive.Cancel className={buttonVariants({ variant: "outline" })}>
      Cancel
    </AlertDialogPrimitive.Cancel>
  );
}
