// Drawings that cost librsvg the most for their size, as an outside audit found them: used by the media and
// API tests (refused before any decoding) and by bench/costly-pictures.ts.

/** Five rectangles under three `feMorphology` filters of a large radius: about 700 bytes, minutes of librsvg. */
export const MORPHOLOGY_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><defs>${["dilate", "erode", "dilate"]
  .map((operator, index) => `<filter id="m${index}"><feMorphology operator="${operator}" radius="${200 + index * 50}"/></filter>`)
  .join("")}</defs>${[0, 1, 2, 3, 4].map((index) => `<rect x="${index * 10}" y="${index * 10}" width="900" height="900" fill="#2d6a4f" filter="url(#m${index % 3})"/>`).join("")}</svg>`;

/** Large text under a huge Gaussian blur. */
export const BLUR_TEXT_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><defs><filter id="b" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="400"/></filter></defs>${[1, 2, 3, 4, 5]
  .map((line) => `<text x="0" y="${line * 180}" font-size="180" filter="url(#b)">Monstera deliciosa</text>`)
  .join("")}</svg>`;

/** About 1 KB whose nested `<use>` make librsvg draw 100,000 rectangles (billion-laughs style). */
export const NESTED_USE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><defs><g id="l0"><rect width="1000" height="1000" fill="green" opacity="0.5"/></g>${[1, 2, 3, 4, 5]
  .map((level) => `<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(10)}</g>`)
  .join("")}</defs><use href="#l5"/></svg>`;

/**
 * One path of 30,000 lines, each across the whole canvas (250 KB): within the drawing cost counted before decoding
 * (7,500 elements), yet librsvg visits every edge on every row it crosses — seconds of CPU, until a limit stops it.
 */
export const LONG_LINES_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><path stroke="black" fill="none" d="M0 0 ${Array.from(
  { length: 30_000 },
  (_, i) => `L${(i * 37) % 1000} ${(i % 2) * 1000}`,
).join(" ")}"/></svg>`;
