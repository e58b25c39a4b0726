import type { ReactNode } from "react";
import { Link } from "react-router";
import { PageTitle } from "./page-title.tsx";

/** A full-page error: its heading is also the page title, and a way back home. */
export function ErrorScreen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="container-page flex flex-col items-center py-20 text-center">
      <PageTitle title={title} />
      <h1 className="text-3xl font-bold text-stone-900">{title}</h1>
      <p className="mt-4 text-stone-700">{children}</p>
      <Link to="/" className="btn-primary mt-6">
        Back to Home
      </Link>
    </section>
  );
}
