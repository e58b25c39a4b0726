import { Form, redirect } from "react-router";
import { FINDER_QUESTIONS, finderDestination, finderWasAnswered } from "#common/catalog/plant-finder.ts";
import { messages } from "#common/shared/messages.ts";
import { pageMeta } from "../../../shared/lib/seo.ts";
import type { Route } from "./+types/plant-finder";

const f = messages.plantFinder;

/** The answered form (a GET, so it works without JavaScript) goes on to the shop's list with the answers' filters. */
export function loader({ request }: Route.LoaderArgs) {
  const answers = Object.fromEntries(new URL(request.url).searchParams);
  if (finderWasAnswered(answers)) throw redirect(finderDestination(answers));
  return null;
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: f.heading,
    description: f.intro,
    path: "/plant-finder",
  });

/** Four questions about the home, each a group of radios with a default that narrows nothing. */
export default function PlantFinder() {
  return (
    <div className="container-page mt-8 max-w-2xl">
      <h1 className="text-3xl font-bold text-stone-900">{f.heading}</h1>
      <p className="mt-2 text-stone-700">{f.intro}</p>
      <Form method="get" className="mt-8 grid gap-6">
        {FINDER_QUESTIONS.map((question) => (
          <fieldset key={question.name} className="rounded-xl border border-stone-200 p-4">
            <legend className="px-1 font-semibold text-stone-900">{question.legend}</legend>
            <div className="mt-2 grid gap-2">
              {question.options.map((option, index) => (
                <label
                  key={option.value}
                  className="flex cursor-pointer items-center gap-3 rounded-lg border border-stone-300 px-3 py-2 has-[:checked]:border-leaf-700 has-[:checked]:bg-leaf-50 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-leaf-600"
                >
                  <input type="radio" name={question.name} value={option.value} defaultChecked={index === 0} className="accent-leaf-700" />
                  <span>{option.label}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ))}
        <div>
          <button type="submit" className="btn-primary">
            {f.submit}
          </button>
        </div>
      </Form>
    </div>
  );
}
