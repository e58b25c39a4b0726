import { describe, expect, it } from "vitest";
import { contactMessageEmail } from "./contact-mail.ts";
import { escapeHtml } from "../../platform/mail/mail-layout.ts";
import { evil, expectLayout, shopName } from "../../../tests/support/mail-layout.ts";

describe("contactMessageEmail", () => {
  it("escapes every value, keeps the message's line breaks and links a reply", () => {
    const mail = contactMessageEmail({
      shopName,
      fromName: evil,
      fromEmail: "ananda@example.com",
      subject: `Repotting ${evil}`,
      message: `First line\r\nSecond line ${evil}\n\nThird & last`,
    });

    expect(mail.subject).toBe(`Contact form: Repotting ${evil}`);
    expect(mail.text).toContain(`${evil} <ananda@example.com>`);
    expect(mail.text).toContain(`First line\nSecond line ${evil}\n\nThird & last`);
    expect(mail.html).toContain(
      `First line<br>\nSecond line ${escapeHtml(evil)}<br>\n<br>\nThird &amp; last`,
    );
    expect(mail.html).toContain(`Repotting ${escapeHtml(evil)}`);
    expect(mail.html).toContain('href="mailto:ananda@example.com?subject=Re%3A%20Repotting%20');
    expectLayout(mail);
  });

  it("keeps the subject line on one line", () => {
    const mail = contactMessageEmail({
      shopName,
      fromName: "A",
      fromEmail: "a@example.com",
      subject: "Hello\r\nBcc: victim@example.com",
      message: "Hi",
    });
    expect(mail.subject).toBe("Contact form: Hello Bcc: victim@example.com");
  });
});
