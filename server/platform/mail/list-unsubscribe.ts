// The headers with which mail programs offer an "Unsubscribe" of their own beside the sender's name (Gmail, Apple
// Mail, Outlook), and which Gmail and Yahoo ask of anyone who mails many people.

/**
 * RFC 2369's `List-Unsubscribe` with `url`, and RFC 8058's `List-Unsubscribe-Post: List-Unsubscribe=One-Click`:
 * the program then POSTs `List-Unsubscribe=One-Click` to `url` from its own servers (no cookies, no page), so the
 * page behind `url` must stop the mails on that POST alone and never on a GET (link scanners open every link).
 * RFC 8058 takes one click only through an https link: a shop on plain http (one run on a laptop) offers the link
 * alone, which a program opens as a page.
 */
export function oneClickUnsubscribeHeaders(url: string): Record<string, string> {
  const link = new URL(url);
  return {
    "List-Unsubscribe": `<${link.href}>`,
    ...(link.protocol === "https:" ? { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {}),
  };
}
