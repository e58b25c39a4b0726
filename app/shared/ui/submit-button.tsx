import type { MouseEvent, ReactNode } from "react";
import { Spinner } from "./spinner.tsx";

/**
 * Props for a button that cannot be used for now (a form on its way, a quantity at its limit): it is marked
 * disabled for assistive technology and ignores presses, but keeps the keyboard focus — a real `disabled`
 * would drop the focus to the page, and the person would have to find their place again.
 */
export function inertWhen(inert: boolean) {
  return {
    "aria-disabled": inert || undefined,
    onClick: inert ? (event: MouseEvent) => event.preventDefault() : undefined,
  };
}

/** A form's submit button that shows a spinner and cannot be pressed twice while the form is being sent. */
export function SubmitButton({ busy, busyLabel, className = "btn-primary", children }: { busy: boolean; busyLabel: string; className?: string; children: ReactNode }) {
  return (
    <button type="submit" className={className} {...inertWhen(busy)}>
      {busy ? <Spinner label={busyLabel} /> : null}
      {children}
    </button>
  );
}
