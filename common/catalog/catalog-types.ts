// Shapes the catalog service returns and the pages and JSON API show.
export interface ImageRef {
  url: string;
  width: number;
  height: number;
  alt: string;
}

export interface ProductSummary {
  id: string;
  name: string;
  description: string;
  pricePaise: number;
  stock: number;
  categoryId: string;
  image: ImageRef | null;
  createdAt: string;
}

export interface ProductDetail extends Omit<ProductSummary, "image"> {
  images: ImageRef[];
  category: { id: string; name: string };
  updatedAt: string;
}

export interface ProductPage {
  items: ProductSummary[];
  /** How many products the list holds, counted up to 1,000 (see totalCapped). */
  total: number;
  /** True when the list holds more than `total` products: shown as "1,000+". */
  totalCapped: boolean;
  limit: number;
  offset: number;
  hasMore: boolean;
  /** Pass as `after` for the next page by key; null on the last page and for searches (ranked, paged by offset). */
  nextCursor: string | null;
}

export interface CategorySummary {
  id: string;
  name: string;
  description: string;
  image: ImageRef;
}

export interface CategoryWithProducts extends CategorySummary {
  /** Pages 1..page of the category's products, oldest first. */
  products: ProductSummary[];
  page: number;
  hasMore: boolean;
}

export interface CategoryListPage {
  items: CategorySummary[];
  page: number;
  hasMore: boolean;
}

/** One suggestion of the search box: a product's name and where it lives. */
export interface ProductSuggestion {
  id: string;
  name: string;
}
