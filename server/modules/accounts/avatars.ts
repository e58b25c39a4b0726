import { createHash } from "node:crypto";

const PALETTE = ["#25632e", "#2f7d39", "#c0643c", "#8a5a44", "#3f6f8f", "#6b4f8f", "#8f3f5a", "#4f7f6f"];
export const AVATAR_SIZE = 100;

export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0]];
  return letters
    .map((word) => [...(word ?? "")][0] ?? "")
    .join("")
    .toUpperCase() || "?";
}

/** A 100×100 SVG of a person's initials on a colour chosen from their name (docs/product.md, Profile). */
export function initialsAvatarSvg(name: string): string {
  const initials = initialsOf(name).replace(/[<>&"']/g, "");
  const colour = PALETTE[createHash("sha256").update(name).digest()[0]! % PALETTE.length];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${AVATAR_SIZE}" height="${AVATAR_SIZE}" viewBox="0 0 100 100">` +
    `<rect width="100" height="100" rx="50" fill="${colour}"/>` +
    `<text x="50" y="50" dy=".35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="40" font-weight="600" fill="#fff">${initials}</text>` +
    `</svg>`
  );
}
