import "react";

// The HTML attributes of invoker commands (a button that opens or closes a dialog with no script: Chromium 135,
// Firefox 144, Safari 26). React passes unknown lower-case attributes through; its types do not list these yet.
declare module "react" {
  // Merged with React's own declaration, whose type parameter it must repeat by name.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ButtonHTMLAttributes<T> {
    commandfor?: string;
    command?: "show-modal" | "close" | "request-close" | "toggle-popover" | "show-popover" | "hide-popover";
  }
}
