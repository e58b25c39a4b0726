/** A person's picture: the uploaded one, else the initials avatar our server draws from the name (docs/product.md, Profile). */
export function avatarUrl({ image, name }: { image: string | null; name: string }): string {
  return image ?? `/avatars/initials.svg?name=${encodeURIComponent(name)}`;
}
