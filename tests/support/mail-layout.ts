import { expect } from "vitest";
import type { MailContent } from "../../server/platform/mail/mail-layout.ts";

// Shared by the e-mail template tests of every module.
export const shopName = "Plant Shop";
export const evil = '<script>alert("x")</script>';
export const url = "https://shop.example/verify?token=abc&next=%2Faccount";

/** What every e-mail shares: the layout, the shop name, the footer, and no unescaped markup from input. */
export function expectLayout(mail: MailContent) {
  expect(mail.html).toContain("max-width:560px");
  expect(mail.html).toContain(`>${shopName}</div>`);
  expect(mail.html).toContain("You received this e-mail because");
  expect(mail.text).toContain("You received this e-mail because");
  expect(mail.html).not.toContain("<script>");
  // The plain-text part carries no markup of the layout (the values in it are plain text, unescaped).
  expect(mail.text).not.toMatch(/<(p|a|div|strong|br|span)\b/);
  expect(mail.text).not.toMatch(/&(amp|lt|gt|quot|#39);/);
}

