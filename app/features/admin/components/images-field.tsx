import { useEffect, useId, useRef, useState } from "react";
import type { UploadPurpose } from "#common/shared/uploads.ts";
import { startResumableUpload, type ResumableUpload } from "#app/shared/lib/resumable-upload.ts";
import { FieldError, fieldErrorProps } from "#app/shared/ui/form-field.tsx";

/** An image the record already has (kept as `image:<id>` unless removed). */
export interface ExistingImage {
  id: string;
  url: string;
  alt?: string;
}

type Item =
  | { key: string; kind: "image"; imageId: string; previewUrl: string; alt: string }
  | {
      key: string;
      kind: "upload";
      fileName: string;
      previewUrl: string;
      sent: number;
      total: number;
      uploadId?: string;
      error?: string;
    };

export interface ImagesFieldProps {
  /** The hidden inputs' name: one per image, in order, `upload:<uploadId>` or `image:<imageId>`. */
  name: string;
  label: string;
  /** Several images (product) or one (category: a new file replaces the old). */
  multiple?: boolean;
  initial?: ExistingImage[];
  /** Who may upload depends on it: product and category images are for admins only. */
  purpose?: UploadPurpose;
  error?: string | undefined;
  /** The error is announced when it appears: it comes back from a submit that leaves the focus elsewhere. */
  announceError?: boolean;
  /** Told whenever uploads start or all finish, so the form can hold its submit button meanwhile. */
  onBusyChange?: (busy: boolean) => void;
}

/**
 * Image picker for the admin forms (docs/product.md, Pictures): previews, reorder (the first is the cover),
 * remove, and a progress bar per file while it uploads resumably (5 MiB tus chunks). What it submits is only the hidden
 * inputs; the server turns each `upload:<id>` into stored images and checks every `image:<id>` is the record's.
 */
export function ImagesField({ name, label, multiple = false, initial = [], purpose = "product", error, announceError = false, onBusyChange }: ImagesFieldProps) {
  const [items, setItems] = useState<Item[]>(() =>
    initial.map((image) => ({ key: `image-${image.id}`, kind: "image", imageId: image.id, previewUrl: image.url, alt: image.alt ?? "" })),
  );
  const uploads = useRef(new Map<string, ResumableUpload>());
  const fieldId = useId();

  const busy = items.some((item) => item.kind === "upload" && !item.uploadId && !item.error);
  useEffect(() => onBusyChange?.(busy), [busy, onBusyChange]);

  // Leaving the page stops sending (what arrived stays on the server for a resume) and frees the previews.
  useEffect(() => {
    const running = uploads.current;
    return () => {
      for (const upload of running.values()) upload.abort();
    };
  }, []);

  const update = (key: string, change: (item: Extract<Item, { kind: "upload" }>) => Partial<Item>) =>
    setItems((current) => current.map((item) => (item.key === key && item.kind === "upload" ? ({ ...item, ...change(item) } as Item) : item)));

  function discard(item: Item) {
    uploads.current.get(item.key)?.abort();
    uploads.current.delete(item.key);
    if (item.kind === "upload") URL.revokeObjectURL(item.previewUrl);
  }

  function addFiles(files: FileList | null) {
    if (!files?.length) return;
    const chosen = multiple ? [...files] : [...files].slice(0, 1);
    const added: Item[] = chosen.map((file) => {
      const key = `upload-${crypto.randomUUID()}`;
      const upload = startResumableUpload(file, {
        purpose,
        onProgress: (sent, total) => update(key, () => ({ sent, total })),
      });
      uploads.current.set(key, upload);
      upload.done.then(
        (uploadId) => {
          uploads.current.delete(key);
          update(key, () => ({ uploadId, sent: file.size, total: file.size }));
        },
        (reason: unknown) => {
          uploads.current.delete(key);
          update(key, () => ({ error: reason instanceof Error ? reason.message : String(reason) }));
        },
      );
      return { key, kind: "upload", fileName: file.name, previewUrl: URL.createObjectURL(file), sent: 0, total: file.size };
    });
    setItems((current) => {
      if (multiple) return [...current, ...added];
      current.forEach(discard);
      return added;
    });
  }

  function remove(key: string) {
    setItems((current) => {
      const item = current.find((candidate) => candidate.key === key);
      if (item) discard(item);
      return current.filter((candidate) => candidate.key !== key);
    });
  }

  function move(index: number, by: -1 | 1) {
    setItems((current) => {
      const target = index + by;
      if (target < 0 || target >= current.length) return current;
      const next = [...current];
      const [moved] = next.splice(index, 1);
      if (moved) next.splice(target, 0, moved);
      return next;
    });
  }

  return (
    <fieldset data-uploading={busy || undefined}>
      <legend className="field-label">{label}</legend>
      {/* The field's values are the hidden inputs below, which cannot take the focus: a form whose check finds this
          field in error focuses this input instead (data-field), and its message is read out with it. */}
      <input
        id={fieldId}
        type="file"
        accept="image/*"
        multiple={multiple}
        aria-label={label}
        {...fieldErrorProps(fieldId, error)}
        data-field={name}
        className="field-input"
        onChange={(event) => {
          addFiles(event.currentTarget.files);
          // The same file may be chosen again (e.g. to resume after a failure).
          event.currentTarget.value = "";
        }}
      />
      {items.length ? (
        <ol className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {items.map((item, index) => {
            const title = item.kind === "upload" ? item.fileName : item.alt || `Image ${index + 1}`;
            return (
              <li key={item.key} className="rounded-md border border-stone-200 p-2 text-xs" data-image-item>
                <img src={item.previewUrl} alt={title} className="aspect-square w-full rounded object-cover" />
                {multiple && index === 0 ? <p className="mt-1 font-semibold text-leaf-800">Cover</p> : null}
                {item.kind === "upload" && !item.uploadId && !item.error ? (
                  <progress
                    className="mt-1 w-full"
                    max={item.total || 1}
                    value={item.sent}
                    aria-label={`Uploading ${item.fileName}`}
                  />
                ) : null}
                {item.kind === "upload" && item.error ? (
                  <p role="alert" className="field-error">
                    {item.fileName}: {item.error}
                  </p>
                ) : null}
                <div className="mt-1 flex gap-1">
                  {multiple ? (
                    <>
                      <button type="button" className="rounded border px-2" onClick={() => move(index, -1)} disabled={index === 0} aria-label={`Move ${title} earlier`}>
                        ←
                      </button>
                      <button
                        type="button"
                        className="rounded border px-2"
                        onClick={() => move(index, 1)}
                        disabled={index === items.length - 1}
                        aria-label={`Move ${title} later`}
                      >
                        →
                      </button>
                    </>
                  ) : null}
                  <button type="button" className="rounded border px-2" onClick={() => remove(item.key)} aria-label={`Remove ${title}`}>
                    Remove
                  </button>
                </div>
                {item.kind === "image" ? <input type="hidden" name={name} value={`image:${item.imageId}`} /> : null}
                {item.kind === "upload" && item.uploadId ? <input type="hidden" name={name} value={`upload:${item.uploadId}`} /> : null}
              </li>
            );
          })}
        </ol>
      ) : null}
      <FieldError controlId={fieldId} error={error} alert={announceError} />
    </fieldset>
  );
}
