import type { ReactNode } from "react";
import { careLines, type CarePart } from "#common/catalog/care-labels.ts";
import type { CareProfile } from "#common/catalog/care-profile.ts";

// Small line icons, one per part of the care card; decorative, as the words beside them say it all.
const ICON_PATHS: Record<CarePart, ReactNode> = {
  light: (
    <>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </>
  ),
  water: <path d="M12 3s-6 6.6-6 11a6 6 0 0 0 12 0c0-4.4-6-11-6-11z" />,
  pets: (
    <>
      <circle cx="6" cy="10" r="1.8" />
      <circle cx="10" cy="6" r="1.8" />
      <circle cx="14" cy="6" r="1.8" />
      <circle cx="18" cy="10" r="1.8" />
      <path d="M12 12c-2.8 0-5 3.2-5 5.3 0 1.6 1.3 2.7 2.8 2.7.9 0 1.4-.5 2.2-.5s1.3.5 2.2.5c1.5 0 2.8-1.1 2.8-2.7 0-2.1-2.2-5.3-5-5.3z" />
    </>
  ),
  difficulty: <path d="M4 20h4v-6H4zM10 20h4V9h-4zM16 20h4V4h-4z" />,
  place: (
    <>
      <path d="M3 11l9-7 9 7" />
      <path d="M5 10v10h14V10" />
    </>
  ),
  height: <path d="M12 3v18M8 7l4-4 4 4M8 17l4 4 4-4" />,
  flowering: (
    <>
      <circle cx="12" cy="9" r="2.5" />
      <path d="M12 6.5c0-2 1-3.5 2.5-3.5S17 4.5 15.5 6.5M14.5 9c2 0 3.5 1 3.5 2.5S16.5 14 14.5 12.5M9.5 9c-2 0-3.5 1-3.5 2.5S7.5 14 9.5 12.5M12 6.5c0-2-1-3.5-2.5-3.5S7 4.5 8.5 6.5M12 11.5V21M12 17c-2 0-3.5-1-4-3M12 19c2 0 3.5-1 4-3" />
    </>
  ),
};

/**
 * The product page's care card (docs/product.md, Product page): one line per part of the profile the owner said,
 * an icon and the words ("Light: Bright indirect light"), so a screen reader reads each line whole. Nothing for a
 * part not said, and no card at all for a plant with no profile.
 */
export function CareCard({ care }: { care: CareProfile }) {
  const lines = careLines(care);
  if (lines.length === 0) return null;
  return (
    <section aria-labelledby="care-heading" className="mt-6 rounded-2xl border border-leaf-100 bg-leaf-50 p-4">
      <h2 id="care-heading" className="text-lg font-semibold text-stone-900">
        Plant care
      </h2>
      <ul aria-labelledby="care-heading" className="mt-3 grid gap-2 sm:grid-cols-2">
        {lines.map((line) => (
          <li key={line.part} className="flex items-start gap-2 text-stone-700">
            <svg
              viewBox="0 0 24 24"
              width="20"
              height="20"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
              focusable="false"
              className="mt-0.5 shrink-0 text-leaf-700"
            >
              {ICON_PATHS[line.part]}
            </svg>
            <span>
              <span className="font-semibold text-stone-900">{line.name}:</span> {line.text}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
