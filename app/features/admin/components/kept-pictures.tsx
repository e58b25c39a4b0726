/**
 * The pictures a product already has, each a checked box posting `image:<id>` in order: unticking one removes
 * it when the form is saved, with or without JavaScript.
 */
export function KeptPictures({ images }: { images: { id: string; url: string; width: number; height: number }[] }) {
  if (!images.length) return null;
  return (
    <ul className="mt-2 flex flex-wrap gap-3">
      {images.map((image, index) => (
        <li key={image.id}>
          <label className="flex flex-col items-center gap-1 text-sm text-stone-700">
            <img src={image.url} width={96} height={96} alt={`Picture ${index + 1}${index === 0 ? " (cover)" : ""}`} className="size-24 rounded object-cover" />
            <span>
              <input type="checkbox" name="images" value={`image:${image.id}`} defaultChecked /> Keep picture {index + 1}
            </span>
          </label>
        </li>
      ))}
    </ul>
  );
}
