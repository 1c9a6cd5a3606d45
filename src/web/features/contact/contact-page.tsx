// /contact: a message to the Prism team.
import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { useForm } from "react-hook-form";
import {
  type ContactFormInput,
  type ContactInput,
  contactSchema,
} from "../../../contract/contact.ts";
import { Card } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { bindFields, Form, FormError, SubmitButton } from "../../components/ui/form.tsx";
import { Label } from "../../components/ui/label.tsx";
import { SuccessPanel } from "../../components/ui/success-panel.tsx";
import { useSendMessage } from "./contact-queries.ts";

const empty: ContactFormInput = { name: "", email: "", subject: "", message: "" };

export function ContactPage() {
  const form = useForm<ContactFormInput, unknown, ContactInput>({
    resolver: zodResolver(contactSchema),
    defaultValues: empty,
  });
  const messageId = useId();
  const errors = form.formState.errors;
  const field = bindFields(form);
  const send = useSendMessage();

  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <h1 className="text-3xl font-semibold tracking-tight">Contact</h1>
      <p className="mt-2 text-muted-foreground">
        A question, an idea, or something that is not working? Write to the people who build Prism.
      </p>
      <Card className="mt-8 p-6">
        {send.isSuccess ? (
          <SuccessPanel
            title="Thank You!"
            message="Your message reached us. We read every one."
            action={{
              label: "Send Another Message",
              onClick: () => {
                form.reset(empty);
                send.reset();
              },
            }}
          />
        ) : (
          <Form form={form} mutation={send}>
            <Field label="Name" autoComplete="name" {...field("name")} />
            <Field label="Email" type="email" autoComplete="email" {...field("email")} />
            <Field label="Subject" {...field("subject")} />
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
            <FormError />
            <SubmitButton pending={send.isPending} pendingLabel="Sending..." className="mt-2">
              Send Message
            </SubmitButton>
          </Form>
        )}
      </Card>
    </div>
  );
}
