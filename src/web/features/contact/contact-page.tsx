// /contact: a message to the Prism team.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { CheckCircle2 } from "lucide-react";
import { useId } from "react";
import { useForm } from "react-hook-form";
import {
  type ContactFormInput,
  type ContactInput,
  contactSchema,
} from "../../../contract/contact.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { Label } from "../../components/ui/label.tsx";
import { api } from "../../lib/api.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";

const empty: ContactFormInput = { name: "", email: "", subject: "", message: "" };

export function ContactPage() {
  const form = useForm<ContactFormInput, unknown, ContactInput>({
    resolver: zodResolver(contactSchema),
    defaultValues: empty,
  });
  const messageId = useId();
  const errors = form.formState.errors;
  const send = useMutation({
    mutationFn: (input: ContactInput) =>
      api.post<{ id: number }>("/api/contact", input, { errorPage: false }),
    onSuccess: () => toastSuccess("Message sent!"),
    onError: () =>
      toastError("Error sending message", "Please try again later or email us directly."),
  });

  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <title>Contact | Prism</title>
      <h1 className="text-3xl font-semibold tracking-tight">Contact</h1>
      <p className="mt-2 text-muted-foreground">
        A question, an idea, or something that is not working? Write to the people who build Prism.
      </p>
      <Card className="mt-8 p-6">
        {send.isSuccess ? (
          <div className="flex flex-col items-center py-6 text-center" role="status">
            <CheckCircle2 className="size-12 text-emerald-600" aria-hidden="true" />
            <h2 className="mt-4 text-2xl font-semibold">Thank You!</h2>
            <p className="mt-2 text-muted-foreground">
              Your message reached us. We read every one.
            </p>
            <Button
              className="mt-6"
              onClick={() => {
                form.reset(empty);
                send.reset();
              }}
            >
              Send Another Message
            </Button>
          </div>
        ) : (
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit((values) => send.mutate(values))}
          >
            <Field
              label="Name"
              autoComplete="name"
              error={errors.name?.message}
              {...form.register("name")}
            />
            <Field
              label="Email"
              type="email"
              autoComplete="email"
              error={errors.email?.message}
              {...form.register("email")}
            />
            <Field label="Subject" error={errors.subject?.message} {...form.register("subject")} />
            <div className="grid gap-1.5">
              <Label htmlFor={messageId}>Message</Label>
              <textarea
                id={messageId}
                rows={6}
                aria-invalid={errors.message ? true : undefined}
                aria-describedby={errors.message ? `${messageId}-error` : undefined}
                className="w-full resize-y rounded-lg border border-border bg-background px-3 py-2 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive"
                {...form.register("message")}
              />
              {errors.message ? (
                <p id={`${messageId}-error`} role="alert" className="text-sm text-destructive">
                  {errors.message.message}
                </p>
              ) : null}
            </div>
            <Button type="submit" disabled={send.isPending} className="mt-2">
              {send.isPending ? "Sending..." : "Send Message"}
            </Button>
          </form>
        )}
      </Card>
    </div>
  );
}
