import type { ReactNode } from "react";

interface FieldProps {
  name: string;
  label: string;
  /** The message shown next to the field when its value was refused. */
  error?: string;
  children: (props: { id: string; name: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode;
}

/** A labelled form field whose error sits right next to it and is announced. */
export function Field({ name, label, error, children }: FieldProps) {
  const id = `field-${name}`;
  const errorId = `${id}-error`;
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      {children({ id, name, ...(error ? { "aria-invalid": true as const, "aria-describedby": errorId } : {}) })}
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
