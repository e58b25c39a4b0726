import { data } from "react-router";

/**
 * The posted form of a page action. A body that is not a form (a script posting JSON, a broken upload) is
 * answered 400 with a message instead of failing the page with a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ message: "The form could not be read. Please fill it in and send it again." }, { status: 400 });
  }
}

/** readForm as plain fields, for the shared schemas to check. */
export async function readFormFields(request: Request): Promise<Record<string, FormDataEntryValue>> {
  return Object.fromEntries(await readForm(request));
}
