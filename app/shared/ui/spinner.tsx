/** A spinning ring with text for screen readers (and, when `visibleLabel`, for everybody). */
export function Spinner({ label, visibleLabel = false }: { label: string; visibleLabel?: boolean }) {
  return (
    <span role="status" className="inline-flex items-center gap-2">
      <span
        aria-hidden="true"
        className="size-5 animate-spin rounded-full border-2 border-current border-t-transparent motion-reduce:animate-none"
      />
      <span className={visibleLabel ? "" : "sr-only"}>{label}</span>
    </span>
  );
}
