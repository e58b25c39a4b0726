import { describe, expect, it } from "vitest";
import { externalOrigin } from "./forwarded-origin.ts";

const direct = new URL("http://127.0.0.1:4420/login?redirectTo=%2Fcart");

describe("externalOrigin", () => {
  it("is the connection's origin without trusted proxies, whatever X-Forwarded-Proto and X-Forwarded-Host say", () => {
    expect(externalOrigin(direct, { proto: "https", host: "shop.example" }, 0)).toBe("http://127.0.0.1:4420");
  });

  it("takes scheme and host from the proxy's headers behind one trusted proxy", () => {
    expect(externalOrigin(direct, { proto: "https", host: "shop.example" }, 1)).toBe("https://shop.example");
    expect(externalOrigin(direct, { proto: "https", host: "127.0.0.1:4419" }, 1)).toBe("https://127.0.0.1:4419");
    expect(externalOrigin(direct, { proto: "HTTPS", host: "Shop.Example:8443" }, 1)).toBe("https://shop.example:8443");
  });

  it("drops a default port as browsers do in their Origin header", () => {
    expect(externalOrigin(direct, { proto: "https", host: "shop.example:443" }, 1)).toBe("https://shop.example");
  });

  it("keeps the connection's host when only the scheme is forwarded, and its scheme when only the host is", () => {
    expect(externalOrigin(direct, { proto: "https", host: undefined }, 1)).toBe("https://127.0.0.1:4420");
    expect(externalOrigin(direct, { proto: undefined, host: "shop.example" }, 1)).toBe("http://shop.example");
  });

  it("reads an appended list from the right, one entry per trusted proxy, so a client's own entry is not believed", () => {
    // The client sent "http" and "evil.example"; the proxy facing it appended what it saw, a second proxy its own.
    const forwarded = { proto: "http, https, http", host: "evil.example, shop.example, 10.0.0.2" };
    expect(externalOrigin(direct, forwarded, 2)).toBe("https://shop.example");
    expect(externalOrigin(direct, forwarded, 1)).toBe("http://10.0.0.2");
  });

  it("takes the only entry when the proxies overwrite rather than append", () => {
    expect(externalOrigin(direct, { proto: "https", host: "shop.example" }, 2)).toBe("https://shop.example");
  });

  it("ignores a scheme other than http or https and a host carrying anything but a host and port", () => {
    expect(externalOrigin(direct, { proto: "javascript", host: "shop.example" }, 1)).toBe("http://shop.example");
    for (const host of ["evil.example/path", "user@evil.example", "evil.example?x", "evil.example#x", "a b", "shop.example:99999", ""]) {
      expect(externalOrigin(direct, { proto: "https", host }, 1), host).toBe("https://127.0.0.1:4420");
    }
  });
});
