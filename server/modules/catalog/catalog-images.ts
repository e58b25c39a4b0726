import type { MediaService } from "../../platform/media/media.ts";
import type { CatalogImages } from "./catalog-editing-context.ts";

/** `/media/<key>-<width>.webp`: the url imageFromUpload gives a picture, naming every file of its set. */
const IMAGE_SET_URL = /^\/media\/([0-9a-f]{32})-(\d{1,5})\.webp$/;

/**
 * The product form's pictures through the media service (h/uploads): a finished upload becomes WebP and AVIF
 * at a few widths; removing a picture removes every file of its set. Urls the media service did not make (the
 * sample illustrations under /illustrations) are left alone.
 */
export function catalogImagesFromMedia(media: Pick<MediaService, "imageFromUpload" | "removeUpload" | "removeImageSet" | "remove">): CatalogImages {
  return {
    async fromUpload(uploadId, user) {
      const image = await media.imageFromUpload(uploadId, user.id);
      return { url: image.url, width: image.width, height: image.height, mediaKey: image.key };
    },
    removeUpload: (uploadId) => media.removeUpload(uploadId),
    async remove(url) {
      const set = IMAGE_SET_URL.exec(url);
      if (set) await media.removeImageSet(set[1]!, Number(set[2]));
      else await media.remove(url);
    },
  };
}
