import type { ReactNode } from "react";

/** A full-page error: its heading is also the page title. */
export function ErrorScreen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="container-page py-20 text-center">
      <title>{title}</title>
      <h1 className="text-3xl font-bold text-stone-900">{title}</h1>
      <p className="mt-4 text-stone-700">{children}</p>
    </section>
  );
}
