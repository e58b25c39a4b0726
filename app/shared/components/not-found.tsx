import { Link } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { PageTitle } from "./page-title.tsx";

export function NotFound({ message = messages.pageNotFound }: { message?: string }) {
  return (
    <section className="container-page flex flex-col items-center py-16 text-center">
      <PageTitle title={message} />
      <img src="/illustrations/not-found.svg" width={800} height={600} alt="" className="w-full max-w-md" />
      <h1 className="mt-6 text-3xl font-bold text-stone-900">{message}</h1>
      <Link to="/" className="btn-primary mt-6">
        Back to Home
      </Link>
    </section>
  );
}
