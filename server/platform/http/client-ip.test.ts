import { describe, expect, it } from "vitest";
import { forwardedClientIp } from "./client-ip.ts";

describe("forwardedClientIp", () => {
  it("is the connection's peer when no proxy is trusted, whatever the header says", () => {
    expect(forwardedClientIp("203.0.113.9", "198.51.100.1", 0)).toBe("203.0.113.9");
  });

  it("reads X-Forwarded-For from the right, one entry per trusted proxy", () => {
    // The client wrote "1.1.1.1" itself; the first proxy appended the real client, the second proxy the first one.
    const header = "1.1.1.1, 198.51.100.7, 10.0.0.2";
    expect(forwardedClientIp("10.0.0.3", header, 1)).toBe("10.0.0.2");
    expect(forwardedClientIp("10.0.0.3", header, 2)).toBe("198.51.100.7");
  });

  it("keeps the peer when the header is missing, too short or not an address", () => {
    expect(forwardedClientIp("10.0.0.3", undefined, 1)).toBe("10.0.0.3");
    expect(forwardedClientIp("10.0.0.3", "198.51.100.7", 2)).toBe("10.0.0.3");
    expect(forwardedClientIp("10.0.0.3", "not-an-address", 1)).toBe("10.0.0.3");
  });

  it("counts an IPv6 client as its /64 network, so every address of one subscriber's block is one client", () => {
    expect(forwardedClientIp("::1", "2001:db8::5", 1)).toBe("2001:0db8:0000:0000:0000:0000:0000:0000");
    expect(forwardedClientIp("::1", "2001:db8::1:2:3:4", 1)).toBe(forwardedClientIp("::1", "2001:db8::5", 1));
    expect(forwardedClientIp("2001:db8:0:1::9", undefined, 0)).toBe("2001:0db8:0000:0001:0000:0000:0000:0000");
  });

  it("reads an IPv4-mapped peer as its IPv4 address, and never lumps IPv4 clients together", () => {
    expect(forwardedClientIp("::ffff:198.51.100.7", undefined, 0)).toBe("198.51.100.7");
    expect(forwardedClientIp("::ffff:198.51.100.8", undefined, 0)).toBe("198.51.100.8");
  });
});
