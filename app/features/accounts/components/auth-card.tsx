import type { ReactNode } from "react";
import { Link } from "react-router";

/** The centred card of the login, register and password screens (which have no top bar). */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <section className="-mb-16 flex min-h-[calc(100dvh-4.5rem)] items-center justify-center bg-leaf-50 px-4 py-12">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-lg">
        <Link to="/" className="mb-6 flex items-center justify-center gap-2 text-lg font-bold text-leaf-800">
          <img src="/illustrations/favicon.svg" width={28} height={28} alt="" />
          Plant Shop
        </Link>
        <h1 className="mb-6 text-center text-2xl font-bold text-stone-900">{title}</h1>
        {children}
        {footer ? <div className="mt-6 text-center text-sm text-stone-700">{footer}</div> : null}
      </div>
    </section>
  );
}
