import type { FunnelTexts } from "../funnel/content-schema";
import { Field } from "./field";
import { FormShell } from "./form-shell";
import { useValidatedForm } from "./use-validated-form";
import { refundReasons, validateRefund } from "./validation";

export const refundFields = ["orderNumber", "email", "reason", "message"] as const;

/** The refund and withdrawal request: checked in the browser first, always on the server. */
export function RefundForm({ texts }: { texts: FunnelTexts["refundForm"] }) {
  const { sent, errors, values, busy, check } = useValidatedForm(refundFields, validateRefund);

  return (
    <FormShell id="refund-form-title" title={texts.title} sent={sent} success={texts.success} busy={busy} submitLabel={texts.submit} onSubmit={check}>
      <p>{texts.intro}</p>
      <Field name="orderNumber" label={texts.orderNumber} error={errors.orderNumber ? texts.errors.orderNumber : undefined}>
        {(props) => <input {...props} type="text" autoComplete="off" defaultValue={values.orderNumber} placeholder="VN-7K3M-Q9XD" />}
      </Field>
      <Field name="email" label={texts.email} error={errors.email ? texts.errors.email : undefined}>
        {(props) => <input {...props} type="email" autoComplete="email" defaultValue={values.email} />}
      </Field>
      <Field name="reason" label={texts.reason} error={errors.reason ? texts.errors.reason : undefined}>
        {(props) => (
          <select {...props} defaultValue={values.reason ?? ""}>
            <option value="" disabled>
              –
            </option>
            {refundReasons.map((reason) => (
              <option key={reason} value={reason}>
                {texts.reasonOptions[reason]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field name="message" label={texts.message}>
        {(props) => <textarea {...props} rows={4} maxLength={2000} defaultValue={values.message} />}
      </Field>
    </FormShell>
  );
}
