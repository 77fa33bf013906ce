import { data } from "react-router";
import { readFormBody } from "./form-body.server";
import type { FormActionData } from "./use-validated-form";
import { formValues, type FieldErrors } from "./validation";

/**
 * A form post validated on the server whatever the browser did: 400 with the errors and the
 * values to show again, or, once `accept` has stored it, success. Nothing personal is logged.
 */
export async function handleFormPost<F extends string>(
  request: Request,
  fields: readonly string[],
  validate: (values: Record<string, string>) => FieldErrors<F>,
  accept: (values: Record<string, string>) => Promise<void>,
) {
  const values = formValues(await readFormBody(request), fields);
  const errors = validate(values);
  const ok = Object.keys(errors).length === 0;
  if (ok) await accept(values);
  return data<FormActionData<F>>({ ok, errors, values: ok ? {} : values }, { status: ok ? 200 : 400 });
}
