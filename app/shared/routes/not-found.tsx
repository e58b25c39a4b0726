import { data } from "react-router";
import { NotFound } from "../components/not-found.tsx";

// Any other path: 'Page Not Found' with status 404.
export function loader() {
  return data(null, { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFound />;
}
