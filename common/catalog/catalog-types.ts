// Shapes the catalog service returns and the pages and JSON API show: inferred from the schemas that document them.
import type { z } from "zod";
import type {
  categoryListPageSchema,
  categoryListSchema,
  categorySummarySchema,
  categoryWithProductsSchema,
  imageRefSchema,
  lowStockProductSchema,
  productDetailSchema,
  productPageSchema,
  productSuggestionSchema,
  productSummarySchema,
  productVariantSchema,
} from "./catalog-schemas.ts";

export type ImageRef = z.infer<typeof imageRefSchema>;
export type ProductSummary = z.infer<typeof productSummarySchema>;
export type ProductDetail = z.infer<typeof productDetailSchema>;
export type ProductVariant = z.infer<typeof productVariantSchema>;
export type ProductPage = z.infer<typeof productPageSchema>;
export type CategorySummary = z.infer<typeof categorySummarySchema>;
export type CategoryList = z.infer<typeof categoryListSchema>;
export type CategoryWithProducts = z.infer<typeof categoryWithProductsSchema>;
export type CategoryListPage = z.infer<typeof categoryListPageSchema>;
export type LowStockProduct = z.infer<typeof lowStockProductSchema>;
export type ProductSuggestion = z.infer<typeof productSuggestionSchema>;
