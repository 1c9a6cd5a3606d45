// A new password and its confirmation: the reset page's and Profile Settings' alike.
import type { ComponentProps } from "react";
import { Field } from "../../components/ui/field.tsx";

type Binding = Omit<ComponentProps<typeof Field>, "label" | "type" | "autoComplete">;

export function NewPasswordFields({
  password,
  confirmPassword,
}: {
  password: Binding;
  confirmPassword: Binding;
}) {
  return (
    <>
      <Field label="New password" type="password" autoComplete="new-password" {...password} />
      <Field
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        {...confirmPassword}
      />
    </>
  );
}
