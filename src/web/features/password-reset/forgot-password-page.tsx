// /forgot-password: asks for a username or e-mail and sends a reset link, without saying whether
// the account exists; on a server that cannot send e-mail, says so and sends the member to an admin.
import { zodResolver } from "@hookform/resolvers/zod";
import { MailCheck, MailX } from "lucide-react";
import { useForm } from "react-hook-form";
import { Link } from "wouter";
import {
  type PasswordResetRequestInput,
  passwordResetMessages,
  passwordResetRequestSchema,
} from "../../../contract/password-reset.ts";
import { Field } from "../../components/ui/field.tsx";
import { bindFields, Form, FormError, SubmitButton } from "../../components/ui/form.tsx";
import { FormPage } from "../../components/ui/form-page.tsx";
import { SuccessPanel } from "../../components/ui/success-panel.tsx";
import { useSiteServices } from "../auth/auth-queries.ts";
import { useRequestReset } from "./password-reset-queries.ts";

export function ForgotPasswordPage() {
  const form = useForm<PasswordResetRequestInput>({
    resolver: zodResolver(passwordResetRequestSchema),
    defaultValues: { login: "" },
  });
  const field = bindFields(form);
  const send = useRequestReset();
  const noMail = useSiteServices()?.outgoingMail === false;

  return (
    <FormPage
      heading="Forgot password"
      lead={
        noMail
          ? passwordResetMessages.noMail
          : "Enter your username or email and we will send you a link to choose a new password."
      }
      footer={
        <p className="mt-6 text-center text-sm text-muted-foreground">
          Remembered it?{" "}
          <Link to="/sign-in" className="underline underline-offset-2 hover:text-foreground">
            Back to sign in
          </Link>
        </p>
      }
    >
      {noMail ? (
        <div className="flex flex-col items-center py-4 text-center">
          <MailX className="size-12 text-muted-foreground" aria-hidden="true" />
          <p className="mt-4">{passwordResetMessages.askAdmin}</p>
        </div>
      ) : send.isSuccess ? (
        <SuccessPanel
          icon={MailCheck}
          message={send.data.message}
          note="The link is valid for one hour."
        />
      ) : (
        <Form form={form} mutation={send}>
          <Field label="Username or email" autoComplete="username" {...field("login")} />
          <FormError />
          <SubmitButton pending={send.isPending} pendingLabel="Sending..." className="mt-2 w-full">
            Send reset link
          </SubmitButton>
        </Form>
      )}
    </FormPage>
  );
}
