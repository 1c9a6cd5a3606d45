// Forms on react-hook-form: checked on submit, sent through a mutation, the server's field
// errors ({ message, errors }) put on the fields they name, and fields bound to their messages.
import type { ComponentProps } from "react";
import {
  type FieldError,
  type FieldValues,
  get,
  type Path,
  type UseFormReturn,
} from "react-hook-form";
import { ApiError } from "../../lib/api.ts";
import { cn } from "../../lib/cn.ts";
import { Button } from "./button.tsx";

/** What a form sends its values through: a mutation. */
interface Sender<TValues> {
  mutate: (values: TValues, options: { onError: (error: Error) => void }) => void;
}

/** Puts the field errors of a failed request on the fields they name. */
function showServerErrors<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, "setError">,
  error: unknown,
) {
  if (!(error instanceof ApiError) || !error.errors) return;
  for (const [field, message] of Object.entries(error.errors)) {
    form.setError(field as Path<T>, { message });
  }
}

/**
 * A form that checks its values, then sends them; the server's field errors land on its fields.
 * Its fields stand gap-4 apart unless `className` says otherwise (it replaces that gap).
 */
export function Form<T extends FieldValues, R>({
  form,
  mutation,
  className = "gap-4",
  ...props
}: Omit<ComponentProps<"form">, "onSubmit"> & {
  form: UseFormReturn<T, unknown, R>;
  mutation: Sender<R>;
}) {
  return (
    <form
      noValidate
      {...props}
      className={cn("grid", className)}
      onSubmit={form.handleSubmit((values) =>
        mutation.mutate(values, { onError: (error) => showServerErrors(form, error) }),
      )}
    />
  );
}

/** Binds Fields to the form: `{...field("email")}` gives the input its name, handlers and message. */
export function bindFields<T extends FieldValues, R>(form: UseFormReturn<T, unknown, R>) {
  return (name: Path<T>) => ({
    error: (get(form.formState.errors, name) as FieldError | undefined)?.message,
    ...form.register(name),
  });
}

/** The submit button: disabled while the form is being sent, and saying so. */
export function SubmitButton({
  pending,
  pendingLabel,
  className,
  children,
}: {
  pending: boolean;
  pendingLabel: string;
  className?: string;
  children: string;
}) {
  return (
    <Button type="submit" disabled={pending} className={className}>
      {pending ? pendingLabel : children}
    </Button>
  );
}
