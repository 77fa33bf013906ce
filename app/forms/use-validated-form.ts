import { useState, type FormEvent } from "react";
import { useActionData, useNavigation } from "react-router";
import { formValues, type FieldErrors } from "./validation";

export interface FormActionData<F extends string> {
  ok: boolean;
  errors: FieldErrors<F>;
  values: Record<string, string>;
}

/**
 * A form checked in the browser before it is sent and always on the server: the errors to show
 * (the browser's own, else the server's), the values to keep, and whether it is being sent.
 */
export function useValidatedForm<F extends string>(fields: readonly string[], validate: (values: Record<string, string>) => FieldErrors<F>) {
  const result = useActionData<FormActionData<F>>();
  const [clientErrors, setClientErrors] = useState<FieldErrors<F> | null>(null);
  const busy = useNavigation().state === "submitting";
  const check = (event: FormEvent<HTMLFormElement>) => {
    const found = validate(formValues(new FormData(event.currentTarget), fields));
    setClientErrors(found);
    if (Object.keys(found).length > 0) event.preventDefault();
  };
  const errors: FieldErrors<F> = clientErrors ?? result?.errors ?? {};
  return { sent: result?.ok === true, errors, values: result?.values ?? {}, busy, check };
}
