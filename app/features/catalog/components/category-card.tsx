import { Link } from "react-router";
import type { CategorySummary } from "#common/catalog/catalog-types.ts";
import { Picture } from "../../../shared/ui/picture.tsx";

export function CategoryCard({ category }: { category: CategorySummary }) {
  return (
    <Link
      to={`/category/${category.id}`}
      className="group block overflow-hidden rounded-2xl border border-stone-200 bg-white text-center shadow-sm hover:shadow-md"
    >
      <Picture
        image={category.image}
        alt=""
        // Two to a row on a phone, four from md.
        sizes="(min-width: 1280px) 300px, (min-width: 768px) 25vw, 50vw"
        className="aspect-square w-full object-cover transition group-hover:scale-[1.02]" />
      <span className="block p-3 font-semibold text-stone-900">{category.name}</span>
    </Link>
  );
}
