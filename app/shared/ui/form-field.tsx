import type { InputHTMLAttributes, TextareaHTMLAttributes } from "react";

/** The id of the message shown under the control whose id is `controlId` (FieldError). */
export const fieldErrorId = (controlId: string) => `${controlId}-error`;

/**
 * The attributes tying a control to its error: marked invalid and described by the message under it, only while
 * there is one (a control described by a message that is not on the page would be read out as nothing).
 */
export function fieldErrorProps(controlId: string, error: string | undefined) {
  return {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? fieldErrorId(controlId) : undefined,
  } as const;
}

/**
 * The error under a field, the message its control's `aria-describedby` names (fieldErrorProps); nothing without one.
 * `alert`: also announced when it appears, for a message that arrives after a submit without moving the focus.
 */
export function FieldError({ controlId, error, alert = false }: { controlId: string; error: string | undefined; alert?: boolean }) {
  return error ? (
    <p id={fieldErrorId(controlId)} role={alert ? "alert" : undefined} className="field-error">
      {error}
    </p>
  ) : null;
}

type FieldProps = {
  label: string;
  name: string;
  error?: string | undefined;
} & (
  | ({ multiline?: false } & InputHTMLAttributes<HTMLInputElement>)
  | ({ multiline: true } & TextareaHTMLAttributes<HTMLTextAreaElement>)
);

/** A labelled input whose error, if any, is shown beside it and announced with it. */
export function FormField({ label, name, error, multiline, ...rest }: FieldProps) {
  const id = `field-${name}`;
  const shared = { id, name, className: "field-input", ...fieldErrorProps(id, error) };
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {multiline ? (
        <textarea {...shared} {...(rest as TextareaHTMLAttributes<HTMLTextAreaElement>)} />
      ) : (
        <input {...shared} {...(rest as InputHTMLAttributes<HTMLInputElement>)} />
      )}
      <FieldError controlId={id} error={error} />
    </div>
  );
}
