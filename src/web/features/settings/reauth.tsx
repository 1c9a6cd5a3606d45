// What the sensitive actions of Profile Settings ask for: the current password, or, for an account
// that signs in with Google only, a Google sign-in from the last few minutes.
import * as AlertDialogPrimitive from "@radix-ui/react-alert-dialog";
import type { UseMutationResult } from "@tanstack/react-query";
import { type ComponentProps, type ReactNode, useState } from "react";
import { useForm } from "react-hook-form";
import { type CurrentUser, type ReauthInput, reauthMessages } from "../../../contract/user.ts";
import { AlertDialogCancel, AlertDialogPanel } from "../../components/ui/alert-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/field.tsx";
import { bindFields, Form, FormError } from "../../components/ui/form.tsx";

/** The current password, for a form whose submission needs it. */
export function CurrentPasswordField(props: Omit<ComponentProps<typeof Field>, "label">) {
  return (
    <Field label="Current password" type="password" autoComplete="current-password" {...props} />
  );
}

/** For a Google-only account: the way to confirm, back to Profile Settings. */
export function ConfirmWithGoogle() {
  return (
    <p className="text-sm text-muted-foreground">
      {reauthMessages.confirmWithGoogle}{" "}
      <a
        href="/auth/google?confirm=1"
        className="font-medium text-primary underline underline-offset-4"
      >
        Confirm with Google
      </a>
    </p>
  );
}

/**
 * A confirmation that asks for the current password and stays open until the action succeeds,
 * so that a wrong password is shown under its field.
 */
export function ReauthDialog({
  user,
  title,
  description,
  actionLabel,
  destructive = false,
  mutation,
  children,
}: {
  user: CurrentUser;
  title: string;
  description: string;
  actionLabel: string;
  destructive?: boolean;
  mutation: UseMutationResult<unknown, Error, ReauthInput>;
  /** The button that opens the dialog. */
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const form = useForm<ReauthInput>({ defaultValues: { currentPassword: "" } });
  const field = bindFields(form);
  const send = {
    mutate: (values: ReauthInput, options: { onError: (error: Error) => void }) =>
      mutation.mutate(values, { ...options, onSuccess: () => setOpen(false) }),
  };
  function toggle(next: boolean) {
    if (!next) form.reset();
    setOpen(next);
  }

  return (
    <AlertDialogPrimitive.Root open={open} onOpenChange={toggle}>
      <AlertDialogPrimitive.Trigger asChild>{children}</AlertDialogPrimitive.Trigger>
      <AlertDialogPanel title={title} description={description}>
        <Form form={form} mutation={send}>
          {user.hasPassword ? (
            <CurrentPasswordField {...field("currentPassword")} />
          ) : (
            <ConfirmWithGoogle />
          )}
          <FormError />
          <div className="flex flex-wrap justify-end gap-2">
            <AlertDialogCancel />
            <Button
              type="submit"
              variant={destructive ? "destructive" : "default"}
              disabled={mutation.isPending}
            >
              {actionLabel}
            </Button>
          </div>
        </Form>
      </AlertDialogPanel>
    </AlertDialogPrimitive.Root>
  );
}
