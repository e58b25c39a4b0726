// Shapes the catalog service returns and the pages and JSON API show.
export interface ImageRef {
  url: string;
  width: number;
  height: number;
  alt: string;
  /** An uploaded image's variants (WebP and AVIF at several widths) derive from this key and `width`; null for a single file. */
  mediaKey?: string | null;
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
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

export interface CategorySummary {
  id: string;
  name: string;
  description: string;
  image: ImageRef;
}

export interface CategoryWithProducts extends CategorySummary {
  products: ProductSummary[];
}
