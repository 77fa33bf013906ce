import { data } from "react-router";
import type { FormActionData } from "./use-validated-form";
import { formValues, type FieldErrors } from "./validation";

/**
 * A form post validated on the server whatever the browser did: 400 with the errors and the
 * values to show again, or success. Submissions are acknowledged on the page; storing them comes
 * with the orders issue, and nothing personal is logged.
 */
export async function handleFormPost<F extends string>(
  request: Request,
  fields: readonly string[],
  validate: (values: Record<string, string>) => FieldErrors<F>,
) {
  const values = formValues(await request.formData(), fields);
  const errors = validate(values);
  const ok = Object.keys(errors).length === 0;
  return data<FormActionData<F>>({ ok, errors, values: ok ? {} : values }, { status: ok ? 200 : 400 });
}
