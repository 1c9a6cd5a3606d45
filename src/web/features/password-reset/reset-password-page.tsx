// /reset-password?token=…: the page a reset e-mail links to, where the member chooses a new password.
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Link } from "wouter";
import {
  type PasswordResetFormInput,
  passwordResetFormSchema,
  passwordResetMessages,
} from "../../../contract/password-reset.ts";
import { bindFields, Form, FormError, SubmitButton } from "../../components/ui/form.tsx";
import { SuccessPanel } from "../../components/ui/success-panel.tsx";
import { TokenLinkPage } from "../../components/ui/token-link-page.tsx";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { useConfirmReset } from "./password-reset-queries.ts";

export function ResetPasswordPage() {
  return (
    <TokenLinkPage
      heading="Reset password"
      lead="Choose a new password. You will be signed out everywhere else."
      noToken={
        <div className="text-center" role="alert">
          <p>{passwordResetMessages.invalidToken}</p>
          <NewLinkLine className="mt-2 text-sm" />
        </div>
      }
    >
      {(token) => <ResetPasswordForm token={token} />}
    </TokenLinkPage>
  );
}

function ResetPasswordForm({ token }: { token: string }) {
  const form = useForm<PasswordResetFormInput>({
    resolver: zodResolver(passwordResetFormSchema),
    defaultValues: { password: "", confirmPassword: "" },
  });
  const field = bindFields(form);
  const reset = useConfirmReset(token);
  if (reset.isSuccess) {
    return (
      <SuccessPanel message={reset.data.message} action={{ label: "Sign in", to: "/sign-in" }} />
    );
  }
  return (
    <Form form={form} mutation={reset}>
      <NewPasswordFields password={field("password")} confirmPassword={field("confirmPassword")} />
      <FormError />
      {reset.isError ? <NewLinkLine className="text-sm" /> : null}
      <SubmitButton pending={reset.isPending} pendingLabel="Saving..." className="mt-2 w-full">
        Reset password
      </SubmitButton>
    </Form>
  );
}

/** The way out of a link that no longer works. */
function NewLinkLine({ className }: { className: string }) {
  return (
    <p className={`${className} text-muted-foreground`}>
      <Link
        to="/forgot-password"
        className="font-medium underline underline-offset-2 hover:text-foreground"
      >
        Ask for a new link
      </Link>
    </p>
  );
}
