import { useEffect, useId, useRef, useState, type KeyboardEvent, type Ref } from "react";
import { useNavigate } from "react-router";
import type { ProductSuggestion } from "#common/catalog/catalog-types.ts";

/** A pause in typing this long asks the server for suggestions; a faster typist asks once per pause. */
const SUGGEST_PAUSE_MS = 150;

interface SearchComboboxProps {
  id: string;
  name: string;
  defaultValue: string;
  placeholder: string;
  className: string;
  inputRef: Ref<HTMLInputElement>;
  /** Called on every change of the text (the shop also filters its list while a shopper types). */
  onTextChange: (input: HTMLInputElement) => void;
  /** Called when a suggestion is opened, before leaving: what onTextChange set in motion must not follow it. */
  onChoose: () => void;
}

/**
 * The shop's search box as a WAI-ARIA combobox with a listbox popup (https://www.w3.org/WAI/ARIA/apg/patterns/combobox/):
 * suggestions appear while typing; ArrowDown/ArrowUp move through them, Enter opens the one chosen (or, with none
 * chosen, submits the form: the plain /shop?q=… results page, which also works without JavaScript), Escape closes
 * the list and then clears the box. A polite live region says how many suggestions there are.
 */
export function SearchCombobox({ id, name, defaultValue, placeholder, className, inputRef, onTextChange, onChoose }: SearchComboboxProps) {
  const listId = useId();
  const navigate = useNavigate();
  const [suggestions, setSuggestions] = useState<ProductSuggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const inFlight = useRef<AbortController | undefined>(undefined);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      inFlight.current?.abort();
    },
    [],
  );

  function close() {
    setOpen(false);
    setActive(-1);
  }

  function ask(text: string) {
    clearTimeout(timer.current);
    inFlight.current?.abort();
    if (!text.trim()) {
      setSuggestions([]);
      setStatus("");
      close();
      return;
    }
    timer.current = setTimeout(async () => {
      const controller = new AbortController();
      inFlight.current = controller;
      try {
        const response = await fetch(`/api/products/suggestions?${new URLSearchParams({ q: text })}`, {
          signal: controller.signal,
          headers: { Accept: "application/json" },
        });
        if (!response.ok) return; // too many searches, or a bad string: the results page still works
        const { items } = (await response.json()) as { items: ProductSuggestion[] };
        setSuggestions(items);
        setActive(-1);
        setOpen(items.length > 0);
        setStatus(items.length === 0 ? "No suggestions" : `${items.length} suggestion${items.length === 1 ? "" : "s"}, use the up and down arrows to choose`);
      } catch {
        // Aborted by newer typing, or offline: nothing to show.
      }
    }, SUGGEST_PAUSE_MS);
  }

  function choose(suggestion: ProductSuggestion) {
    close();
    onChoose();
    void navigate(`/product/${suggestion.id}`);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const count = suggestions.length;
    switch (event.key) {
      case "ArrowDown":
        if (count === 0) return;
        event.preventDefault();
        setOpen(true);
        setActive((current) => (current + 1) % count);
        break;
      case "ArrowUp":
        if (count === 0) return;
        event.preventDefault();
        setOpen(true);
        setActive((current) => (current <= 0 ? count - 1 : current - 1));
        break;
      case "Enter": {
        const chosen = open ? suggestions[active] : undefined;
        if (chosen) {
          event.preventDefault();
          choose(chosen);
        } else {
          close(); // the form submits: the full results page
        }
        break;
      }
      case "Escape":
        if (open) {
          event.preventDefault();
          close();
        } else if (event.currentTarget.value) {
          event.preventDefault();
          event.currentTarget.value = "";
          onTextChange(event.currentTarget);
          ask("");
        }
        break;
    }
  }

  const optionId = (index: number) => `${listId}-option-${index}`;
  return (
    <>
      <input
        ref={inputRef}
        id={id}
        type="search"
        name={name}
        defaultValue={defaultValue}
        placeholder={placeholder}
        maxLength={100}
        autoComplete="off"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        className={className}
        onChange={(event) => {
          onTextChange(event.currentTarget);
          ask(event.currentTarget.value);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => close()}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Suggestions"
        hidden={!open}
        className="absolute left-0 right-0 top-full z-20 mt-1 overflow-hidden rounded-xl border border-stone-200 bg-white py-1 text-left shadow-lg"
      >
        {suggestions.map((suggestion, index) => (
          <li
            key={suggestion.id}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className={`cursor-pointer px-4 py-2 text-stone-900 ${index === active ? "bg-leaf-100" : "hover:bg-leaf-50"}`}
            // mousedown, not click: the input's blur would close the list before a click lands.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(suggestion);
            }}
          >
            {suggestion.name}
          </li>
        ))}
      </ul>
      <p role="status" aria-live="polite" className="sr-only">
        {status}
      </p>
    </>
  );
}
