import { Link } from "react-router";
import { HERO_INTERVAL_MS } from "#common/shared/constants.ts";
import { messages } from "#common/shared/messages.ts";
import { CategoryCard } from "../features/catalog/components/category-card.tsx";
import { ContactForm } from "../features/contact/components/contact-form.tsx";
import { ProductGrid } from "../features/catalog/components/product-card.tsx";
import { useGrowingList } from "../features/catalog/components/growing-list.ts";
import { EarlierLink, LoadMoreLink } from "../features/catalog/components/load-more-link.tsx";
import { Carousel } from "../shared/ui/carousel.tsx";
import { HeadsetIcon, ShieldIcon, TruckIcon } from "../shared/ui/icons.tsx";
import { readFormFields } from "../shared/lib/forms.ts";
import { actionResult, loadOrRefuse } from "../shared/lib/service-errors.ts";
import { pageMeta } from "../shared/lib/seo.ts";
import { useProductCardSlots } from "./product-card-slots.tsx";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    description: "Indoor plants, succulents, flowering and outdoor plants, delivered to your door.",
    path: "/",
    image: "/illustrations/hero-1.svg",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const page = new URL(request.url).searchParams.get("categories") ?? undefined;
  const [newProducts, categories] = await Promise.all([
    loadOrRefuse(() => context.services.catalog.listNewestProducts()),
    loadOrRefuse(() => context.services.catalog.listCategoryPages({ page })),
  ]);
  // The hearts of the cards (none for a visitor, or in the page every shopper shares: context.user is null there).
  const saved = await context.services.wishlist.savedAmong(context.user, newProducts.map((product) => product.id));
  return { newProducts, categories, saved };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormFields(request);
  return actionResult(() => context.services.contact.sendMessage(form, { clientIp: context.clientIp }));
}

const HERO_SLIDES = [
  { url: "/illustrations/hero-1.svg", alt: "A sunny shelf full of potted plants" },
  { url: "/illustrations/hero-2.svg", alt: "A bright greenhouse garden" },
];

const PROMISES = [
  { title: messages.home.promiseTiles[0], text: "On every order, to your door.", Icon: TruckIcon },
  { title: messages.home.promiseTiles[1], text: "Plant care questions answered any time.", Icon: HeadsetIcon },
  { title: messages.home.promiseTiles[2], text: "Not happy with a plant? Get your money back.", Icon: ShieldIcon },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  const { newProducts, categories, saved } = loaderData;
  const slotsFor = useProductCardSlots(saved);
  const shownCategories = useGrowingList(categories.items, categories.page, { pageParam: "categories" });
  return (
    <>
      <div className="relative">
        <Carousel
          label="Featured"
          autoplayMs={HERO_INTERVAL_MS}
          slides={HERO_SLIDES.map((slide, index) => (
            <img
              key={slide.url}
              src={slide.url}
              alt={slide.alt}
              width={1600}
              height={600}
              // The first slide is the page's largest paint: fetched at once and first (docs/decisions/028).
              loading={index === 0 ? "eager" : "lazy"}
              fetchPriority={index === 0 ? "high" : "auto"}
              className="h-56 w-full object-cover object-right sm:h-[28rem] sm:object-center"
            />
          ))}
        />
        {/* Over the banner on wider screens; below it on phones, where it would hide the picture. */}
        <div className="flex items-center sm:pointer-events-none sm:absolute sm:inset-0">
          <div className="container-page">
            <div className="py-6 sm:pointer-events-auto sm:max-w-md sm:rounded-2xl sm:bg-white/85 sm:p-6 sm:shadow-lg sm:backdrop-blur-sm">
              <h1 className="text-3xl font-bold text-leaf-900 sm:text-4xl">Bring nature home</h1>
              <p className="mt-3 text-stone-700">
                Healthy, hand-picked plants for every room, balcony and garden, grown with care by our nursery.
              </p>
              <div className="mt-5 flex flex-wrap gap-3">
                <Link to="/shop" className="btn-primary">
                  {messages.home.shopCollection}
                </Link>
                <Link to="/plant-finder" className="btn-outline">
                  {messages.home.findYourPlant}
                </Link>
              </div>
            </div>
          </div>
        </div>
      </div>

      <section aria-label="Our promises" className="container-page mt-10 grid gap-4 sm:grid-cols-3">
        {PROMISES.map(({ title, text, Icon }) => (
          <div key={title} className="flex items-start gap-4 rounded-2xl bg-leaf-50 p-5">
            <Icon className="shrink-0 text-leaf-700" width={32} height={32} />
            <div>
              <h2 className="font-semibold text-stone-900">{title}</h2>
              <p className="text-sm text-stone-700">{text}</p>
            </div>
          </div>
        ))}
      </section>

      <section aria-labelledby="new-products" className="container-page mt-14">
        <div className="mb-6 flex items-end justify-between">
          <h2 id="new-products" className="text-2xl font-bold text-stone-900">
            {messages.home.newProducts}
          </h2>
          {/* The visible 'See More' (docs/product.md, Home), completed for screen readers and search engines, which
              read a bare 'See More' as a link saying nothing of where it goes (Lighthouse SEO, docs/decisions/028). */}
          <Link to="/shop" className="font-semibold text-leaf-800 underline underline-offset-4">
            {messages.home.seeMore}
            <span className="sr-only"> {messages.home.seeMoreHidden}</span>
          </Link>
        </div>
        {/* The promo banner leads to the sale (docs/decisions/047): the whole banner is the link. */}
        <Link to="/sale" className="relative mb-6 block overflow-hidden rounded-2xl focus-visible:outline-offset-4">
          <img
            src="/illustrations/promo-summer-sale.svg"
            alt=""
            width={1200}
            height={400}
            loading="lazy"
            className="h-40 w-full object-cover sm:h-48"
          />
          <p className="absolute inset-y-0 left-0 flex items-center px-8 text-3xl font-extrabold text-leaf-900 sm:text-4xl">
            {messages.home.promoBanner}
          </p>
        </Link>
        <ProductGrid products={newProducts} slotsFor={slotsFor} />
      </section>

      <section aria-labelledby="popular-categories" className="container-page mt-14">
        <h2 id="popular-categories" className="mb-6 text-2xl font-bold text-stone-900">
          {messages.home.popularCategories}
        </h2>
        {shownCategories.earlierPage ? (
          <EarlierLink
            to={shownCategories.earlierPage > 1 ? `/?categories=${shownCategories.earlierPage}#popular-categories` : "/#popular-categories"}
            label={messages.home.earlierCategories}
          />
        ) : null}
        <ul ref={shownCategories.listRef} className="grid grid-cols-2 gap-4 md:grid-cols-4">
          {shownCategories.items.map((category) => (
            <li key={category.id}>
              <CategoryCard category={category} />
            </li>
          ))}
        </ul>
        {categories.hasMore ? (
          <LoadMoreLink to={`/?categories=${categories.page + 1}#popular-categories`} state={shownCategories.moreState} onClick={shownCategories.loadingMore} />
        ) : null}
      </section>

      <section aria-labelledby="about-us" className="container-page mt-14">
        <div className="grid gap-6 rounded-2xl bg-leaf-50 p-8 md:grid-cols-2">
          <h2 id="about-us" className="text-2xl font-bold text-stone-900">
            {messages.home.aboutUs}
          </h2>
          <p className="text-stone-700">
            We are a small nursery that grows and ships plants we love: easy houseplants for new plant parents, hardy
            succulents, fragrant flowering plants and climbers for the garden. Every plant is checked, potted and packed
            by hand, and we are happy to help it thrive in its new home.
          </p>
        </div>
      </section>

      <section aria-labelledby="contact-us" className="container-page mt-14">
        <h2 id="contact-us" className="mb-6 text-2xl font-bold text-stone-900">
          {messages.home.contactUs}
        </h2>
        <ContactForm />
      </section>
    </>
  );
}
