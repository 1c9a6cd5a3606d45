// /forgot-password: asks for a username or e-mail and sends a reset link, without saying whether
// the account exists.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { MailCheck } from "lucide-react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import {
  type PasswordResetRequestInput,
  passwordResetRequestSchema,
} from "../../../contract/password-reset.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { api } from "../../lib/api.ts";

export function ForgotPasswordPage() {
  const form = useForm<PasswordResetRequestInput>({
    resolver: zodResolver(passwordResetRequestSchema),
    defaultValues: { login: "" },
  });
  const send = useMutation({
    mutationFn: (input: PasswordResetRequestInput) =>
      api.post<{ message: string }>("/api/password-reset/request", input, { errorPage: false }),
  });

  return (
    <div className="mx-auto flex w-full max-w-md flex-col px-4 py-12 sm:py-16">
      <title>Forgot password | Prism</title>
      <h1 className="text-center text-3xl font-semibold tracking-tight">Forgot password</h1>
      <p className="mt-2 text-center text-muted-foreground">
        Enter your username or email and we will send you a link to choose a new password.
      </p>
      <Card className="mt-8 p-6">
        {send.isSuccess ? (
          <div className="flex flex-col items-center py-4 text-center" role="status">
            <MailCheck className="size-12 text-emerald-600" aria-hidden="true" />
            <p className="mt-4">{send.data.message}</p>
            <p className="mt-2 text-sm text-muted-foreground">The link is valid for one hour.</p>
          </div>
        ) : (
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit((values) => send.mutate(values))}
          >
            <Field
              label="Username or email"
              autoComplete="username"
              error={form.formState.errors.login?.message}
              {...form.register("login")}
            />
            {send.isError ? (
              <p role="alert" className="text-sm text-destructive">
                {send.error.message}
              </p>
            ) : null}
            <Button type="submit" disabled={send.isPending} className="mt-2 w-full">
              {send.isPending ? "Sending..." : "Send reset link"}
            </Button>
          </form>
        )}
      </Card>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        Remembered it?{" "}
        <Link to="/sign-in" className="underline underline-offset-2 hover:text-foreground">
          Back to sign in
        </Link>
      </p>
    </div>
  );
}
