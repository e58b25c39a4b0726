/** Link previews (Open Graph) use pictures of this size; /share/… renders the shop's illustrations at it. */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** The address of an image for link previews: an SVG illustration's PNG rendering, any other image as it is. */
export function shareImagePath(imagePath: string): string {
  return /^\/illustrations\/[a-z0-9/-]+\.svg$/.test(imagePath) ? `/share${imagePath.replace(/\.svg$/, ".png")}` : imagePath;
}
