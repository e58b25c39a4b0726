import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countDelimiters, multipartBoundary } from "./form-parts-limit.ts";

describe("multipartBoundary", () => {
  it("reads the boundary, quoted or not, among other parameters, and nothing from a body that is not multipart", () => {
    expect(multipartBoundary("multipart/form-data; boundary=----abc123")).toBe("----abc123");
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b;c"')).toBe("a b;c");
    expect(multipartBoundary("multipart/form-data")).toBeUndefined();
    expect(multipartBoundary("application/x-www-form-urlencoded; boundary=x")).toBeUndefined();
    expect(multipartBoundary(undefined)).toBeUndefined();
  });
});

describe("countDelimiters", () => {
  it("counts one delimiter per part and the closing one, for any form a browser's FormData sends", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 40 })), { maxLength: 30 }), async (fields) => {
        const form = new FormData();
        for (const [name, value] of fields) form.append(name, value);
        const request = new Request("http://shop.test/", { method: "POST", body: form });
        const boundary = multipartBoundary(request.headers.get("Content-Type") ?? undefined)!;
        const body = Buffer.from(await request.arrayBuffer());
        expect(countDelimiters(body, boundary, Number.POSITIVE_INFINITY)).toBe(fields.length + 1);
      }),
    );
  });

  it("stops counting at the limit it is given", () => {
    const body = Buffer.from("--b\r\n\r\n1\r\n--b\r\n\r\n2\r\n--b\r\n\r\n3\r\n--b--\r\n", "latin1");
    expect(countDelimiters(body, "b", Number.POSITIVE_INFINITY)).toBe(4);
    expect(countDelimiters(body, "b", 2)).toBe(2);
  });
});
