import { Form } from "react-router";

/**
 * Delete behind a confirmation that works without JavaScript: a disclosure holding the question and the one
 * button that posts `intent=delete` with the row's id under `idField`.
 */
export function ConfirmDelete({ idField, id, name, question }: { idField: string; id: string; name: string; question: string }) {
  return (
    <details>
      <summary className="cursor-pointer text-sm text-red-700">Delete</summary>
      <Form method="post" className="mt-2 max-w-xs text-sm">
        <p>{question}</p>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name={idField} value={id} />
        <button type="submit" className="mt-2 rounded bg-red-700 px-3 py-1 font-semibold text-white">
          Yes, delete {name}
        </button>
      </Form>
    </details>
  );
}
