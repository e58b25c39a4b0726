import { DIFFICULTY_LABELS, LIGHT_LABELS, PET_SAFETY_LABELS, PLACE_LABELS } from "#common/catalog/care-labels.ts";
import { CARE_FLOWERING_MAX_LENGTH, CARE_WATERING_MAX_LENGTH, type CareProfile } from "#common/catalog/care-profile.ts";
import { FieldError, fieldErrorProps, FormField } from "../../../shared/ui/form-field.tsx";

/** The care profile's fields as the form posts them: `care.<part>`, each '' when not said. */
const CARE_FIELDS = ["light", "watering", "waterEveryDays", "petSafe", "difficulty", "place", "heightCm", "flowering"] as const;

/** A labelled choice whose error is shown beside it and announced with it, like FormField's. */
function ChoiceField({
  label,
  name,
  options,
  empty,
  defaultValue,
  error,
}: {
  label: string;
  name: string;
  options: Record<string, string>;
  empty: string;
  defaultValue: string | null | undefined;
  error: string | undefined;
}) {
  const id = `field-${name}`;
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue ?? ""} className="field-input" {...fieldErrorProps(id, error)}>
        <option value="">{empty}</option>
        {Object.entries(options).map(([value, words]) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
      <FieldError controlId={id} error={error} />
    </div>
  );
}

/** One of the profile's whole numbers (days, centimetres), empty when not said. */
function CareNumberField({
  label,
  part,
  care,
  errors,
}: {
  label: string;
  part: "waterEveryDays" | "heightCm";
  care: CareProfile | undefined;
  errors: Record<string, string | undefined>;
}) {
  const value = care?.[part];
  return (
    <FormField
      label={label}
      name={`care.${part}`}
      inputMode="numeric"
      defaultValue={value === null || value === undefined ? "" : String(value)}
      error={errors[`care.${part}`]}
    />
  );
}

/**
 * The product form's Care section (docs/product.md, Product form): every part optional, 'Not said' when the owner
 * does not know. The product page shows what is said as its care card.
 */
export function CareFields({ care, errors }: { care: CareProfile | undefined; errors: Record<string, string | undefined> }) {
  return (
    <fieldset className="grid gap-3 rounded-lg border border-stone-200 p-4">
      <legend className="px-1 text-sm font-semibold text-stone-800">Care (optional)</legend>
      <p className="text-sm text-stone-600">Shown on the product page as its care card. Leave a part empty when you do not know it.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <ChoiceField label="Light" name="care.light" options={LIGHT_LABELS} empty="Not said" defaultValue={care?.light} error={errors["care.light"]} />
        <ChoiceField label="Pets" name="care.petSafe" options={PET_SAFETY_LABELS} empty="Not known" defaultValue={care?.petSafe} error={errors["care.petSafe"]} />
      </div>
      <div className="grid gap-3 sm:grid-cols-[2fr_1fr]">
        <FormField
          label="Watering"
          name="care.watering"
          placeholder="When the top 2 cm of soil is dry"
          maxLength={CARE_WATERING_MAX_LENGTH}
          defaultValue={care?.watering ?? ""}
          error={errors["care.watering"]}
          autoComplete="off"
        />
        <CareNumberField label="Water every (days)" part="waterEveryDays" care={care} errors={errors} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <ChoiceField label="Difficulty" name="care.difficulty" options={DIFFICULTY_LABELS} empty="Not said" defaultValue={care?.difficulty} error={errors["care.difficulty"]} />
        <ChoiceField label="Where it grows" name="care.place" options={PLACE_LABELS} empty="Not said" defaultValue={care?.place} error={errors["care.place"]} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <CareNumberField label="Mature height (cm)" part="heightCm" care={care} errors={errors} />
        <FormField
          label="Flowering season"
          name="care.flowering"
          placeholder="Spring to early summer"
          maxLength={CARE_FLOWERING_MAX_LENGTH}
          defaultValue={care?.flowering ?? ""}
          error={errors["care.flowering"]}
          autoComplete="off"
        />
      </div>
    </fieldset>
  );
}

/** The Care section's fields as the service takes them: absent from a form without the section (then left as it is). */
export function careFromForm(form: FormData): Record<string, string> | undefined {
  if (!CARE_FIELDS.some((part) => form.has(`care.${part}`))) return undefined;
  return Object.fromEntries(
    CARE_FIELDS.map((part) => {
      const value = form.get(`care.${part}`);
      return [part, typeof value === "string" ? value : ""];
    }),
  );
}
