// The `sizes` of post lists (decision 064), apart from IMAGE_SIZES
// (./image-variants.ts): only the list pages' chunks carry them, not the home's
// (decision 033's budget). Same rules: the layout of app/styles/app.css at each
// width, a little more never less; checked in Chromium by tests/e2e/image-sizes.test.ts.
export const LIST_IMAGE_SIZES = {
  /** Post lists (.post-grid): one column below 21.75rem, two to 32rem, three to 61rem, then four of at most 16.75rem. */
  card: [
    "(max-width: 21.74rem) calc(100vw - 2rem)",
    "(max-width: 31.99rem) calc(50vw - 1.375rem)",
    "(max-width: 47.99rem) calc((100vw - 3.5rem) / 3)",
    "(max-width: 61.99rem) calc((100vw - 4rem) / 3)",
    "(max-width: 72.99rem) calc((100vw - 5rem) / 4)",
    "16.75rem",
  ].join(", "),
  /** A post's related quotes: the same columns of 9.5rem in the 44rem text column, four at most. */
  related: [
    "(max-width: 21.74rem) calc(100vw - 2rem)",
    "(max-width: 31.99rem) calc(50vw - 1.375rem)",
    "(max-width: 42.24rem) calc((100vw - 3.5rem) / 3)",
    "10.5rem",
  ].join(", "),
} as const;
export type ListPlace = keyof typeof LIST_IMAGE_SIZES;
