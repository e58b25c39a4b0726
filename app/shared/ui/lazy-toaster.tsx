import { useEffect, useState, type ComponentProps, type ComponentType } from "react";
import type { Toaster as ToasterComponent } from "react-hot-toast";
import { loadToastLibrary } from "../lib/toast.ts";

type ToasterProps = ComponentProps<typeof ToasterComponent>;

/**
 * react-hot-toast's <Toaster/>, loaded once the page has hydrated instead of with the first paint (nothing
 * is toasted before then); toasts asked for earlier wait in the library's store and show when it renders.
 */
export function LazyToaster(props: ToasterProps) {
  const [Toaster, setToaster] = useState<ComponentType<ToasterProps> | null>(null);
  useEffect(() => {
    let live = true;
    void loadToastLibrary().then((library) => {
      if (live) setToaster(() => library.Toaster);
    });
    return () => {
      live = false;
    };
  }, []);
  return Toaster ? <Toaster {...props} /> : null;
}
