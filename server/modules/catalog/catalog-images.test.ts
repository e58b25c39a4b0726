import { describe, expect, it } from "vitest";
import { catalogImagesFromMedia } from "./catalog-images.ts";

function recordingMedia() {
  const calls: string[] = [];
  return {
    calls,
    media: {
      imageFromUpload: async (uploadId: string, userId: string) => {
        calls.push(`imageFromUpload ${uploadId} ${userId}`);
        return { key: "a".repeat(32), width: 640, height: 480, url: `/media/${"a".repeat(32)}-640.webp`, sourceType: "png" };
      },
      removeUpload: async (uploadId: string) => {
        calls.push(`removeUpload ${uploadId}`);
      },
      removeImageSet: async (key: string, width: number) => {
        calls.push(`removeImageSet ${key} ${width}`);
      },
      remove: async (url: string) => {
        calls.push(`remove ${url}`);
      },
    },
  };
}

describe("catalogImagesFromMedia", () => {
  it("turns an upload of the admin into the picture's largest WebP url, its size and the key of its variants", async () => {
    const { media, calls } = recordingMedia();
    const image = await catalogImagesFromMedia(media).fromUpload("f".repeat(32), { id: "admin-1" } as never);
    expect(image).toEqual({ url: `/media/${"a".repeat(32)}-640.webp`, width: 640, height: 480, mediaKey: "a".repeat(32) });
    expect(calls).toEqual([`imageFromUpload ${"f".repeat(32)} admin-1`]);
  });

  it("removes every file of an image set by its key and width, hands any other url to the plain removal, and removes a raw upload by its id", async () => {
    const { media, calls } = recordingMedia();
    const images = catalogImagesFromMedia(media);
    await images.remove(`/media/${"b".repeat(32)}-1280.webp`);
    await images.remove("/illustrations/products/aloe-vera-1.svg");
    await images.removeUpload("c".repeat(32));
    expect(calls).toEqual([`removeImageSet ${"b".repeat(32)} 1280`, "remove /illustrations/products/aloe-vera-1.svg", `removeUpload ${"c".repeat(32)}`]);
  });
});
