import type { ReactNode } from "react";
import { Spinner } from "./spinner.tsx";

/** A form's submit button that shows a spinner and cannot be pressed twice while the form is being sent. */
export function SubmitButton({ busy, busyLabel, className = "btn-primary", children }: { busy: boolean; busyLabel: string; className?: string; children: ReactNode }) {
  return (
    <button type="submit" className={className} disabled={busy}>
      {busy ? <Spinner label={busyLabel} /> : null}
      {children}
    </button>
  );
}
