import type { FormEvent, ReactNode } from "react";
import { Form } from "react-router";

interface FormShellProps {
  id: string;
  title: string;
  /** Shown in place of the form once the server accepted it. */
  sent: boolean;
  success: string;
  busy: boolean;
  submitLabel: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}

/** The frame our forms share: a titled post form, its submit button, and the confirmation. */
export function FormShell({ id, title, sent, success, busy, submitLabel, onSubmit, children }: FormShellProps) {
  if (sent) {
    return (
      <p className="form-success" role="status" data-testid="form-success">
        {success}
      </p>
    );
  }
  return (
    <Form method="post" className="form" noValidate onSubmit={onSubmit} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
        {submitLabel}
      </button>
    </Form>
  );
}
