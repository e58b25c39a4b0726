/** A form-level message (the server's answer), announced to screen readers when it appears. */
export function FormMessage({ message, tone = "error" }: { message: string | null | undefined; tone?: "error" | "success" }) {
  if (!message) return null;
  const colours = tone === "error" ? "border-red-200 bg-red-50 text-red-800" : "border-leaf-200 bg-leaf-50 text-leaf-900";
  return (
    <p role={tone === "error" ? "alert" : "status"} className={`rounded-lg border px-4 py-3 text-sm ${colours}`}>
      {message}
    </p>
  );
}
