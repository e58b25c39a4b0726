import type { ReactNode } from "react";
import { Link } from "react-router";

/** The top of an owner's account page: the way back to the profile, the page's heading and what it is for. */
export function AccountPageHeader({ userId, heading, intro }: { userId: string; heading: string; intro: ReactNode }) {
  return (
    <>
      <Link to={`/profile/${userId}`} className="text-sm text-leaf-800 underline underline-offset-4">
        Back to your profile
      </Link>
      <h1 className="mb-2 mt-2 text-3xl font-bold text-stone-900">{heading}</h1>
      <p className="mb-6 text-stone-700">{intro}</p>
    </>
  );
}
