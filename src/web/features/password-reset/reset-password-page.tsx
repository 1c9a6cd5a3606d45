// /reset-password?token=…: the page a reset e-mail links to, where the member chooses a new password.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { CheckCircle2 } from "lucide-react";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router";
import {
  type PasswordResetFormInput,
  passwordResetFormSchema,
  passwordResetMessages,
} from "../../../contract/password-reset.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { api } from "../../lib/api.ts";

const linkClass = "font-medium underline underline-offset-2 hover:text-foreground";

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const form = useForm<PasswordResetFormInput>({
    resolver: zodResolver(passwordResetFormSchema),
    defaultValues: { password: "", confirmPassword: "" },
  });
  const errors = form.formState.errors;
  const reset = useMutation({
    mutationFn: ({ password }: PasswordResetFormInput) =>
      api.post<{ message: string }>(
        "/api/password-reset/confirm",
        { token, password },
        { errorPage: false },
      ),
  });

  return (
    <div className="mx-auto flex w-full max-w-md flex-col px-4 py-12 sm:py-16">
      <title>Reset password | Prism</title>
      <h1 className="text-center text-3xl font-semibold tracking-tight">Reset password</h1>
      <p className="mt-2 text-center text-muted-foreground">
        Choose a new password. You will be signed out everywhere else.
      </p>
      <Card className="mt-8 p-6">
        {reset.isSuccess ? (
          <div className="flex flex-col items-center py-4 text-center" role="status">
            <CheckCircle2 className="size-12 text-emerald-600" aria-hidden="true" />
            <p className="mt-4">{reset.data.message}</p>
            <Button asChild className="mt-6">
              <Link to="/sign-in">Sign in</Link>
            </Button>
          </div>
        ) : !token ? (
          <div className="text-center" role="alert">
            <p>{passwordResetMessages.invalidToken}</p>
            <p className="mt-2 text-sm text-muted-foreground">
              <Link to="/forgot-password" className={linkClass}>
                Ask for a new link
              </Link>
            </p>
          </div>
        ) : (
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit((values) => reset.mutate(values))}
          >
            <Field
              label="New password"
              type="password"
              autoComplete="new-password"
              error={errors.password?.message}
              {...form.register("password")}
            />
            <Field
              label="Confirm new password"
              type="password"
              autoComplete="new-password"
              error={errors.confirmPassword?.message}
              {...form.register("confirmPassword")}
            />
            {reset.isError ? (
              <div role="alert" className="text-sm text-destructive">
                <p>{reset.error.message}</p>
                <p className="mt-1 text-muted-foreground">
                  <Link to="/forgot-password" className={linkClass}>
                    Ask for a new link
                  </Link>
                </p>
              </div>
            ) : null}
            <Button type="submit" disabled={reset.isPending} className="mt-2 w-full">
              {reset.isPending ? "Saving..." : "Reset password"}
            </Button>
          </form>
        )}
      </Card>
    </div>
  );
}
