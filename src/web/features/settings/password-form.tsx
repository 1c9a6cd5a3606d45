// Profile Settings: change the password with the current one, or, for an account that signs in
// with Google only, choose one after confirming with Google.
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import {
  type PasswordChangeFormInput,
  passwordChangeFormSchema,
} from "../../../contract/password-reset.ts";
import type { CurrentUser } from "../../../contract/user.ts";
import { Card } from "../../components/ui/card.tsx";
import { bindFields, Form, FormError, SubmitButton } from "../../components/ui/form.tsx";
import { NewPasswordFields } from "../password-reset/new-password-fields.tsx";
import { ConfirmWithGoogle, CurrentPasswordField } from "./reauth.tsx";
import { useChangePassword } from "./settings-queries.ts";

const empty = { currentPassword: "", password: "", confirmPassword: "" };

export function PasswordForm({ user }: { user: CurrentUser }) {
  const form = useForm<PasswordChangeFormInput>({
    resolver: zodResolver(passwordChangeFormSchema),
    defaultValues: empty,
  });
  const field = bindFields(form);
  const change = useChangePassword(() => form.reset(empty));
  const label = user.hasPassword ? "Change password" : "Choose a password";

  return (
    <Card className="mt-6 p-6">
      <h2 id="password-heading" className="text-lg font-semibold">
        Password
      </h2>
      <Form form={form} mutation={change} aria-labelledby="password-heading" className="mt-4 gap-5">
        {user.hasPassword ? (
          <CurrentPasswordField {...field("currentPassword")} />
        ) : (
          <ConfirmWithGoogle />
        )}
        <div className="grid gap-5 sm:grid-cols-2">
          <NewPasswordFields
            password={field("password")}
            confirmPassword={field("confirmPassword")}
          />
        </div>
        <FormError />
        <div className="flex justify-end">
          <SubmitButton pending={change.isPending} pendingLabel="Saving...">
            {label}
          </SubmitButton>
        </div>
      </Form>
    </Card>
  );
}
