// The toast library loads after the first paint (docs/decisions/028): pages call these, which
// load react-hot-toast on first use. Its store is one per page, so a toast asked for before <LazyToaster/>
// has loaded is kept there and shows as soon as the toaster renders.
import type * as ReactHotToast from "react-hot-toast";

type ToastOptions = { id?: string };
type ToastLibrary = typeof ReactHotToast;

let library: Promise<ToastLibrary> | undefined;

/** react-hot-toast, imported once; the toaster and the toast calls share this one module. */
export function loadToastLibrary(): Promise<ToastLibrary> {
  library ??= import("react-hot-toast");
  return library;
}

function show(kind: "success" | "error", message: string, options?: ToastOptions) {
  void loadToastLibrary().then(({ default: toast }) => toast[kind](message, options));
}

export const toast = {
  success: (message: string, options?: ToastOptions) => show("success", message, options),
  error: (message: string, options?: ToastOptions) => show("error", message, options),
};
