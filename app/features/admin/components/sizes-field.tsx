import { useEffect, useRef, useState } from "react";
import { MAX_SIZES } from "#common/admin/size-limits.ts";
import { FieldError, fieldErrorProps } from "../../../shared/ui/form-field.tsx";

// The product form's sizes (docs/product.md, Product form): a plant sold in several sizes has one row per size, each
// with its label, SKU, price, compare-at price, stock and, once the plant has saved pictures, one of them as its own,
// in the order the shop shows them. The rows post as lists (sizeId, sizeLabel, sizeSku, sizePrice, sizeCompareAt,
// sizeStock, sizeStockBefore, sizeImage), one value per row, in order.

/** A size as the edit form loads it. */
export interface LoadedSize {
  id: string;
  label: string;
  sku: string;
  price: string;
  compareAt: string;
  stock: number;
  /** The id of its own picture; empty: none. */
  image: string;
}

/** One of the plant's saved pictures, as a size's picture choice names it. */
export interface SizePicture {
  id: string;
  name: string;
}

/** A row of the form: `id` and `stockBefore` for a size the product has, neither for a new one. */
export interface SizeRow {
  key: string;
  id: string | undefined;
  label: string;
  sku: string;
  price: string;
  compareAt: string;
  stock: string;
  stockBefore: number | undefined;
  image: string;
}

let nextKey = 0;
const newKey = () => `size-${++nextKey}`;

export const rowFromLoaded = (size: LoadedSize): SizeRow => ({ key: newKey(), ...size, stock: String(size.stock), stockBefore: size.stock });
export const emptyRow = (): SizeRow => ({ key: newKey(), id: undefined, label: "", sku: "", price: "", compareAt: "", stock: "", stockBefore: undefined, image: "" });

/** How a row is named to assistive technology: its label, else its place. */
export const sizeName = (row: SizeRow, index: number) => (row.label.trim() ? `'${row.label.trim()}'` : `size ${index + 1}`);

const FIELDS = [
  { field: "label", name: "sizeLabel", label: "Label", inputMode: undefined, hint: "Such as Large · 10\" pot" },
  { field: "sku", name: "sizeSku", label: "SKU", inputMode: undefined, hint: undefined },
  { field: "price", name: "sizePrice", label: "Price (Rs.)", inputMode: "decimal", hint: undefined },
  { field: "compareAt", name: "sizeCompareAt", label: "Compare-at Price (Rs.)", inputMode: "decimal", hint: undefined },
  { field: "stock", name: "sizeStock", label: "Stock", inputMode: "numeric", hint: undefined },
] as const;

/**
 * The rows of a plant sold in sizes. Errors come keyed by place (`variants.<index>.<field>`), as the service and the
 * schema name them, and show under the field of that row; `variants` alone (the whole list) shows under the list.
 */
export function SizesField({
  rows,
  onChange,
  errors,
  pictures = [],
}: {
  rows: SizeRow[];
  onChange: (rows: SizeRow[]) => void;
  errors: Record<string, string>;
  /** The plant's saved pictures: a size may take one as its own (shown first when the size is chosen). */
  pictures?: SizePicture[];
}) {
  // After a move or a removal the focus follows the row (or lands on the list), not on a button that left.
  const [focusAfter, setFocusAfter] = useState<string | null>(null);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!focusAfter) return;
    const target = list.current?.querySelector<HTMLElement>(`[data-focus-key="${focusAfter}"]`) ?? list.current?.querySelector<HTMLElement>("[data-focus-key]");
    target?.focus();
    setFocusAfter(null);
  }, [focusAfter]);

  const set = (index: number, field: (typeof FIELDS)[number]["field"] | "image", value: string) =>
    onChange(rows.map((row, at) => (at === index ? { ...row, [field]: value } : row)));
  const move = (index: number, by: -1 | 1, row: SizeRow) => {
    const to = index + by;
    if (to < 0 || to >= rows.length) return;
    const next = [...rows];
    [next[index], next[to]] = [next[to]!, next[index]!];
    onChange(next);
    setFocusAfter(`${row.key}-${by < 0 ? "up" : "down"}`);
  };
  const remove = (index: number) => {
    onChange(rows.filter((_, at) => at !== index));
    setFocusAfter(rows[index + 1]?.key ?? rows[index - 1]?.key ?? null);
  };
  const listError = errors.variants;

  return (
    <fieldset className="grid gap-3 rounded-lg border border-stone-200 p-4">
      <legend className="px-1 text-sm font-semibold text-stone-800">Sizes</legend>
      <p className="-mt-1 text-sm text-stone-600">
        Shown on the product page in this order. Each size has its own SKU, price and stock; with two sizes or more each needs a label.
      </p>
      <div ref={list} className="grid gap-3">
        {rows.map((row, index) => (
          <fieldset key={row.key} className="grid gap-2 rounded-md border border-stone-200 bg-stone-50 p-3" data-testid="size-row">
            <legend className="px-1 text-sm font-medium text-stone-800">{`Size ${index + 1}`}</legend>
            <input type="hidden" name="sizeId" value={row.id ?? ""} />
            <input type="hidden" name="sizeStockBefore" value={row.stockBefore ?? ""} />
            <div className="grid gap-2 sm:grid-cols-5">
              {FIELDS.map(({ field, name, label, inputMode, hint }) => {
                const id = `${row.key}-${field}`;
                const error = errors[`variants.${index}.${field}`];
                return (
                  <div key={field} className={field === "label" ? "sm:col-span-2" : undefined}>
                    <label htmlFor={id} className="field-label">
                      {label}
                    </label>
                    <input
                      id={id}
                      name={name}
                      data-field={`variants.${index}.${field}`}
                      data-focus-key={field === "label" ? row.key : undefined}
                      className="field-input"
                      inputMode={inputMode}
                      placeholder={hint}
                      autoComplete="off"
                      value={row[field]}
                      onChange={(event) => set(index, field, event.target.value)}
                      {...fieldErrorProps(id, error)}
                    />
                    <FieldError controlId={id} error={error} />
                  </div>
                );
              })}
            </div>
            {pictures.length ? (
              <div>
                <label htmlFor={`${row.key}-image`} className="field-label">
                  Picture
                </label>
                <select
                  id={`${row.key}-image`}
                  name="sizeImage"
                  data-field={`variants.${index}.image`}
                  className="field-input"
                  value={pictures.some((picture) => picture.id === row.image) ? row.image : ""}
                  onChange={(event) => set(index, "image", event.target.value)}
                  {...fieldErrorProps(`${row.key}-image`, errors[`variants.${index}.image`])}
                >
                  <option value="">The plant's pictures, as ordered</option>
                  {pictures.map((picture) => (
                    <option key={picture.id} value={picture.id}>
                      {picture.name}
                    </option>
                  ))}
                </select>
                <FieldError controlId={`${row.key}-image`} error={errors[`variants.${index}.image`]} />
              </div>
            ) : (
              // Without saved pictures a size has none of its own; the list stays one value per row.
              <input type="hidden" name="sizeImage" value="" />
            )}
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                className="btn-outline text-sm"
                data-focus-key={`${row.key}-up`}
                aria-label={`Move ${sizeName(row, index)} up`}
                disabled={index === 0}
                onClick={() => move(index, -1, row)}
              >
                Move up
              </button>
              <button
                type="button"
                className="btn-outline text-sm"
                data-focus-key={`${row.key}-down`}
                aria-label={`Move ${sizeName(row, index)} down`}
                disabled={index === rows.length - 1}
                onClick={() => move(index, 1, row)}
              >
                Move down
              </button>
              <button type="button" className="btn-outline text-sm" aria-label={`Remove ${sizeName(row, index)}`} disabled={rows.length === 1} onClick={() => remove(index)}>
                Remove
              </button>
            </div>
            {errors[`variants.${index}.id`] ? <p className="field-error">{errors[`variants.${index}.id`]}</p> : null}
          </fieldset>
        ))}
      </div>
      {listError ? <p className="field-error">{listError}</p> : null}
      <div>
        <button type="button" className="btn-outline text-sm" disabled={rows.length >= MAX_SIZES} onClick={() => {
          const row = emptyRow();
          onChange([...rows, row]);
          setFocusAfter(row.key);
        }}>
          Add a size
        </button>
      </div>
    </fieldset>
  );
}

/** The posted rows, zipped back into sizes; undefined when the form has none (the one-size form). */
export function sizesFromForm(form: FormData) {
  const list = (name: string) => form.getAll(name).map((value) => (typeof value === "string" ? value : ""));
  const skus = list("sizeSku");
  if (!skus.length) return undefined;
  const [ids, labels, prices, compareAts, stocks, stocksBefore, images] = ["sizeId", "sizeLabel", "sizePrice", "sizeCompareAt", "sizeStock", "sizeStockBefore", "sizeImage"].map(
    list,
  ) as string[][];
  return skus.map((sku, index) => ({
    id: ids?.[index] || undefined,
    label: labels?.[index] ?? "",
    sku,
    price: prices?.[index] ?? "",
    compareAt: compareAts?.[index] ?? "",
    stock: stocks?.[index] ?? "",
    stockBefore: stocksBefore?.[index] || undefined,
    image: images?.[index] || undefined,
  }));
}
