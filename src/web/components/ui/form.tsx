// Forms on react-hook-form: checked on submit, sent through a mutation, the server's field
// errors ({ message, errors }) put on the fields they name, a failure without a field said beside
// the form, and fields bound to their messages.
import { type ComponentProps, createContext, useContext, useEffect, useId, useState } from "react";
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

/**
 * Puts the field errors of a failed request on the fields they name; answers the failure's
 * message when it names no field (a wrong password, the network, too many attempts…).
 */
function showServerErrors<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, "setError">,
  error: Error,
): string | null {
  if (!(error instanceof ApiError) || !error.errors) return error.message;
  for (const [field, message] of Object.entries(error.errors)) {
    form.setError(field as Path<T>, { message });
  }
  return null;
}

/** The form's failure without a field, and the id its FormError takes. */
const FailureContext = createContext<{ id: string; message: string | null }>({
  id: "",
  message: null,
});

/**
 * A form that checks its values, then sends them; the server's field errors land on its fields,
 * a failure without a field in its FormError (which every Form places, above its submit button)
 * until the member edits the form or sends it again.
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
  const id = useId();
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    const subscription = form.watch(() => setFailure(null));
    return () => subscription.unsubscribe();
  }, [form]);
  const send = form.handleSubmit((values) =>
    mutation.mutate(values, { onError: (error) => setFailure(showServerErrors(form, error)) }),
  );
  return (
    <FailureContext value={{ id, message: failure }}>
      <form
        noValidate
        aria-describedby={failure ? id : undefined}
        {...props}
        className={cn("grid", className)}
        onSubmit={(event) => {
          setFailure(null);
          return send(event);
        }}
      />
    </FailureContext>
  );
}

/** Where a Form says its failure without a field: announced, and kept after the toast has gone. */
export function FormError() {
  const { id, message } = useContext(FailureContext);
  if (!message) return null;
  return (
    <p
      id={id}
      role="alert"
      className="rounded-lg border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive"
    >
      {message}
    </p>
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
