import { FormMessage } from "../../../shared/ui/form-message.tsx";

/**
 * The top of an owner's list-and-editor page (discount codes, delivery zones): what the last action did, or why a
 * change made from the list (pause, delete) was refused. A refused form shows its own messages beside its fields.
 */
export function EditorOutcome({ notice, refusedChange }: { notice: string | null; refusedChange: string | null }) {
  return (
    <>
      {notice ? (
        <p role="status" className="mb-4 rounded-lg border border-leaf-200 bg-leaf-50 px-4 py-3 text-leaf-900">
          {notice}
        </p>
      ) : null}
      {refusedChange ? <FormMessage message={refusedChange} /> : null}
    </>
  );
}
