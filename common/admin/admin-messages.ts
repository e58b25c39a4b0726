// The owner's catalogue pages (issue 10). The product form's texts are the spec's (section 5) word for word;
// the rest are ours, written for a shop owner.
export const adminMessages = {
  productForm: {
    addHeading: "Add Product",
    updateHeading: "Update Product",
    nameRequired: "Product name is required",
    descriptionRequired: "Product description is required",
    priceRequired: "Product price is required",
    priceInvalid: "Enter the price in rupees, such as 1500 or 1499.50",
    imagesRequired: "At least one product image is required",
    categoryRequired: "Product category is required",
    stockRequired: "Stock quantity is required",
    stockInvalid: "Stock quantity must be a whole number, 0 or more",
    failed: "Failed to process product. Please try again.",
    newCategoryNeedsImage: "A new category needs a Category Image",
    tooManyImages: (max: number) => `At most ${max} product images`,
    nameTaken: "Another product already has this name. Choose a different one.",
    unknownImage: "One of the pictures is no longer part of this product. Reload the page and try again.",
    pictureTwice: "The same uploaded picture is chosen twice. Choose each picture once and try again.",
    stockChanged: (now: number) => `The stock changed while you were editing it: ${now} in stock now. Check the stock and save again.`,
    notAPicture: "One of the pictures is not one of this form's. Reload the page and try again.",
    categoryDescriptionTooLong: (max: number) => `The category description can be at most ${max} characters.`,
  },
  category: {
    defaultDescription: "Default description",
    nameRequired: "Category name is required",
    nameTaken: "A category with this name already exists.",
    notFound: "Category not found",
    inUse: "This category still has products. Move or delete them first, then delete the category.",
    renamed: "Category renamed.",
    imageChanged: "Category image changed.",
    deleted: "Category deleted.",
    confirmDelete: (name: string) => `Delete the category ${name}? This cannot be undone.`,
  },
  products: {
    heading: "Products",
    none: "No products found.",
    stockSaved: "Stock saved.",
    deleted: "Product deleted.",
    confirmDelete: (name: string) =>
      `Delete ${name}? It leaves the shop, search and every cart; orders keep their copy. This cannot be undone.`,
  },
} as const;
