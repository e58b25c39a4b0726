import { describe, expect, it } from "vitest";
import { existingAccountEmail, passwordChangedEmail, passwordResetEmail, signInCodeEmail, verificationEmail } from "./account-mails.ts";
import { escapeHtml } from "../../platform/mail/mail-layout.ts";
import { evil, expectLayout, shopName, url } from "../../../tests/support/mail-layout.ts";

describe("verificationEmail", () => {
  it("carries the link in both parts and escapes the name", () => {
    const mail = verificationEmail({ shopName, name: evil, url });

    expect(mail.subject).toBe("Verify your e-mail for Plant Shop");
    expect(mail.text).toContain(url);
    expect(mail.text).toContain(`Hello ${evil},`);
    expect(mail.html).toContain(`href="${escapeHtml(url)}"`);
    expect(mail.html).toContain("background-color:#25632e");
    // The link is also printed below the button.
    expect(mail.html.split(escapeHtml(url)).length - 1).toBe(3);
    expect(mail.html).toContain(escapeHtml(evil));
    expectLayout(mail);
  });

  it("escapes the shop name in the html part", () => {
    const mail = verificationEmail({ shopName: "Ferns & <b>Co</b>", name: "Ānanda", url });

    expect(mail.subject).toBe("Verify your e-mail for Ferns & <b>Co</b>");
    expect(mail.html).toContain("Ferns &amp; &lt;b&gt;Co&lt;/b&gt;");
    expect(mail.html).not.toContain("<b>Co</b>");
    expect(mail.html).toContain("Hello Ānanda,");
  });
});

describe("passwordResetEmail", () => {
  it("carries the link, says it works once and when it expires", () => {
    const resetUrl = "https://shop.example/reset-password?token=xyz";
    const mail = passwordResetEmail({ shopName, name: evil, url: resetUrl, expiresInMinutes: 30 });

    expect(mail.subject).toBe("Reset your Plant Shop password");
    expect(mail.text).toContain(resetUrl);
    expect(mail.html).toContain(`href="${resetUrl}"`);
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("works once");
      expect(part).toContain("expires in 30 minutes");
      expect(part).toContain("If you did not ask for this, ignore this e-mail");
    }
    expect(mail.html).toContain(escapeHtml(evil));
    expectLayout(mail);
  });

  it("says 1 minute, not 1 minutes", () => {
    const mail = passwordResetEmail({ shopName, name: "A", url, expiresInMinutes: 1 });
    expect(mail.text).toContain("expires in 1 minute.");
  });
});

describe("passwordChangedEmail", () => {
  it("tells them to reset the password if it was not them", () => {
    const mail = passwordChangedEmail({ shopName, name: evil });

    expect(mail.subject).toBe("Your Plant Shop password was changed");
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("If it was not you, reset your password");
    }
    expect(mail.text).toContain(`Hello ${evil},`);
    expect(mail.html).toContain(escapeHtml(evil));
    expectLayout(mail);
  });
});

describe("existingAccountEmail", () => {
  it("tells the owner someone tried to sign up with the address, and links log in and password reset", () => {
    const loginUrl = "https://shop.example/login";
    const resetUrl = "https://shop.example/forgot-password";
    const mail = existingAccountEmail({ shopName, name: evil, loginUrl, resetUrl });

    expect(mail.subject).toBe("Someone tried to create a Plant Shop account with your e-mail");
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("Someone tried to create an account at Plant Shop with your e-mail address");
      expect(part).toContain(loginUrl);
      expect(part).toContain(resetUrl);
      expect(part).toContain("If it was not you, ignore this e-mail");
    }
    expect(mail.text).toContain(`Hello ${evil},`);
    expect(mail.html).toContain(escapeHtml(evil));
    expectLayout(mail);
  });
});

describe("signInCodeEmail", () => {
  it("carries the code in the subject and both parts, says how long it works, and escapes the name", () => {
    const mail = signInCodeEmail({ shopName, name: evil, code: "048213", expiresInMinutes: 15 });

    expect(mail.subject).toBe("Your Plant Shop sign-in code: 048213");
    expect(mail.text).toContain("048213");
    expect(mail.text).toContain("expires in 15 minutes");
    expect(mail.html).toContain(">048213</strong>");
    expect(mail.html).toContain(escapeHtml(evil));
    expect(mail.html).not.toContain(evil);
    expectLayout(mail);
  });
});
