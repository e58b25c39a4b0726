import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import type { CareProfile } from "#common/catalog/care-profile.ts";
import { CareFields, careFromForm } from "./care-fields.tsx";
import { emptyRow, rowFromLoaded, SizesField, sizesFromForm, type LoadedSize, type SizePicture, type SizeRow } from "./sizes-field.tsx";

const m = adminMessages.productForm;

/** What the product form's action answers when the save failed: 'Failed to process product. Please try again.', then why. */
export interface ProductFormFailure {
  ok: false;
  message: string;
  fieldErrors: Record<string, string>;
}

/** What the form hands each picture field: where to report running uploads, and the field's message. */
export interface PictureFieldProps {
  onBusyChange: (busy: boolean) => void;
  error: string | undefined;
}

export interface ProductFormValues {
  name: string;
  description: string;
  price: string;
  stock: string;
  category: string;
  compareAt?: string;
  saleStartsAt?: string;
  saleEndsAt?: string;
  care?: CareProfile;
}

/**
 * The one form of 'Add Product' and 'Update Product': its fields in the order docs/product.md, Product form gives.
 * `productImages` and `categoryImage` are the picture fields, given by the route (they post `images` and
 * `categoryImage` as `upload:<id>` / `image:<id>` values).
 */
export function ProductForm({
  heading,
  creating,
  values,
  categoryNames,
  failure,
  productImages,
  categoryImage,
  stockBefore,
  sizes = [],
  pictures = [],
}: {
  heading: string;
  /** Editing: the product's saved pictures, which a size may take as its own. */
  pictures?: SizePicture[];
  /** Editing: the product's sizes as loaded (again after a refused save, for their stock as it is now). */
  sizes?: LoadedSize[];
  /** Adding a product, which needs a picture; an edit may keep none. */
  creating: boolean;
  /** Editing: the stock as loaded (again after a refused save), so that saving an unchanged stock never undoes a sale. */
  stockBefore?: number;
  values: ProductFormValues | null;
  categoryNames: string[];
  failure: ProductFormFailure | undefined;
  /** The picture fields, told how to report that their uploads are still running, and their message if any. */
  productImages: (field: PictureFieldProps) => ReactNode;
  categoryImage: (field: PictureFieldProps) => ReactNode;
}) {
  // The form waits for both picture fields: a save while a file is still uploading would leave it out.
  const [uploading, setUploading] = useState({ images: false, categoryImage: false });
  const imagesBusy = useCallback((busy: boolean) => setUploading((now) => ({ ...now, images: busy })), []);
  const categoryImageBusy = useCallback((busy: boolean) => setUploading((now) => ({ ...now, categoryImage: busy })), []);
  const navigation = useNavigation();
  // A plant sold in several sizes edits them as rows; one sold in one size shows the one price and stock fields until
  // the owner adds a size (docs/product.md, Product form).
  const [rows, setRows] = useState<SizeRow[] | null>(() => (sizes.length > 1 ? sizes.map(rowFromLoaded) : null));
  const form = useRef<HTMLFormElement>(null);
  // A refused save reloads the sizes: each row's stockBefore becomes its stock now, so the next save goes through.
  // Keyed by the stocks loaded, not the list (a new array each render).
  const loadedStocks = sizes.map((size) => `${size.id}:${size.stock}`).join(",");
  useEffect(() => {
    const stockOf = new Map(loadedStocks.split(",").map((pair) => [pair.split(":")[0], Number(pair.split(":")[1])] as const));
    setRows((now) => now && now.map((row) => ({ ...row, stockBefore: (row.id !== undefined ? stockOf.get(row.id) : undefined) ?? row.stockBefore })));
  }, [loadedStocks]);
  const addSize = () => {
    // The one-size fields become the first row, as typed, with its SKU (and id) kept when the plant has one.
    const typed = (name: string) => {
      const field = form.current?.elements.namedItem(name);
      return field instanceof HTMLInputElement ? field.value : "";
    };
    const only = sizes.length === 1 ? sizes[0] : undefined;
    const first: SizeRow = {
      ...(only ? rowFromLoaded(only) : emptyRow()),
      price: typed("price"),
      compareAt: typed("compareAt"),
      stock: typed("stock"),
    };
    setRows([first, emptyRow()]);
  };
  // The browser checks what the action will hand the service, with the service's schema: the pictures too, so an
  // empty form shows every message at once instead of the picture's only after the rest are right.
  const { errors, onSubmit, prepare } = useFormErrors(
    () => import("#common/admin/admin-schemas.ts").then((schemas) => (creating ? schemas.newProductFormSchema : schemas.productFormSchema)),
    failure?.fieldErrors,
    { read: productInputFromForm, key: (path) => ((path[0] === "variants" || path[0] === "care") && path.length > 1 ? path.join(".") : String(path[0])) },
  );
  const busy = navigation.state === "submitting" || uploading.images || uploading.categoryImage;
  return (
    <Form ref={form} method="post" onSubmit={onSubmit} onFocus={prepare} noValidate className="mt-6 grid max-w-2xl gap-5">
      <h1 className="text-3xl font-bold text-stone-900">{heading}</h1>
      {failure ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          <p className="font-semibold">{m.failed}</p>
          <p data-testid="failure-reason">{failure.message}</p>
        </div>
      ) : null}
      <FormField label="Product Name" name="name" defaultValue={values?.name} error={errors.name} autoComplete="off" />
      <FormField label="Product Description" name="description" multiline rows={4} defaultValue={values?.description} error={errors.description} />
      {rows ? (
        <SizesField rows={rows} onChange={setRows} errors={errors} pictures={pictures} />
      ) : (
        <div>
          <FormField label="Product Price" name="price" inputMode="decimal" defaultValue={values?.price} error={errors.price} />
          <button type="button" className="btn-outline mt-2 text-sm" onClick={addSize}>
            Add a size
          </button>
        </div>
      )}
      <fieldset className="grid gap-3 rounded-lg border border-stone-200 p-4">
        <legend className="px-1 text-sm font-semibold text-stone-800">Sale (optional)</legend>
        {rows ? (
          <p className="text-sm text-stone-600">Each size's compare-at price is in its row: the sale's dates below are the plant's, for every size.</p>
        ) : (
          <>
            <FormField label="Compare-at Price" name="compareAt" inputMode="decimal" defaultValue={values?.compareAt} error={errors.compareAt} />
            <p className="-mt-2 text-sm text-stone-600">The regular price, shown struck through beside the product price while the sale runs.</p>
          </>
        )}
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label="Sale Starts" name="saleStartsAt" type="datetime-local" defaultValue={values?.saleStartsAt} error={errors.saleStartsAt} />
          <FormField label="Sale Ends" name="saleEndsAt" type="datetime-local" defaultValue={values?.saleEndsAt} error={errors.saleEndsAt} />
        </div>
        <p className="-mt-1 text-sm text-stone-600">Empty: the sale runs until you remove the compare-at price. Outside its dates the compare-at price is charged.</p>
      </fieldset>
      <CareFields care={values?.care} errors={errors} />
      {productImages({ onBusyChange: imagesBusy, error: errors.images })}
      {categoryImage({ onBusyChange: categoryImageBusy, error: errors.categoryImage })}
      <div>
        <FormField label="Product Category" name="category" list="category-names" defaultValue={values?.category} error={errors.category} autoComplete="off" />
        <datalist id="category-names">
          {categoryNames.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <p className="mt-1 text-sm text-stone-600">Pick an existing category, or type a new name: a new category needs a Category Image.</p>
      </div>
      <FormField label="Category Description (for a new category)" name="categoryDescription" placeholder={adminMessages.category.defaultDescription} error={errors.categoryDescription} />
      {rows ? null : (
        <>
          <FormField label="Stock Quantity" name="stock" inputMode="numeric" defaultValue={values?.stock} error={errors.stock} />
          {stockBefore === undefined ? null : <input type="hidden" name="stockBefore" value={stockBefore} />}
        </>
      )}
      <div>
        <SubmitButton busy={busy} busyLabel={uploading.images || uploading.categoryImage ? "Uploading pictures…" : "Saving…"}>
          {heading}
        </SubmitButton>
      </div>
    </Form>
  );
}

/** The form's fields as the service takes them: the pictures are a list, in the order they were posted. */
export function productInputFromForm(form: FormData) {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  return {
    name: text("name"),
    description: text("description"),
    price: text("price"),
    stock: text("stock"),
    stockBefore: text("stockBefore"),
    compareAt: text("compareAt"),
    saleStartsAt: text("saleStartsAt"),
    saleEndsAt: text("saleEndsAt"),
    category: text("category"),
    categoryImage: text("categoryImage"),
    categoryDescription: text("categoryDescription"),
    images: form.getAll("images").filter((value): value is string => typeof value === "string" && value !== ""),
    variants: sizesFromForm(form),
    care: careFromForm(form),
  };
}
