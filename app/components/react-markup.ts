// React's server markup written as strings, for the pages the server makes
// without React (the home's gallery, server/home-page.ts; a post page,
// server/post-page.ts): its escaping, the comment it puts between two texts,
// a Link's anchor and PostImage's <img>. Each twin's tests compare it with
// React's own render, byte for byte.
import { imageSrcSet } from "#app/content/image-variants.ts";

const ESCAPED: Record<string, string> = {
  '"': "&quot;",
  "'": "&#x27;",
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
};

/** React's escaping of text and attribute values alike (react-dom/server's escapeTextForBrowser). */
export function escaped(value: string): string {
  return MARKUP.test(value) ? value.replace(MARKUP_ALL, (c) => ESCAPED[c] ?? c) : value;
}
const MARKUP = /["'&<>]/;
const MARKUP_ALL = /["'&<>]/g;

/**
 * An element's children as React writes them: two texts in a row get an
 * empty comment between them (React's text separator), an empty text is
 * nothing, and any tag ends a run of text.
 */
export class Children {
  html = "";
  #afterText = false;

  text(value: string | number): this {
    const said = String(value);
    if (said === "") return this;
    if (this.#afterText) this.html += "<!-- -->";
    this.html += escaped(said);
    this.#afterText = true;
    return this;
  }

  /** Markup (an element, whole): ends a run of text. */
  tag(markup: string): this {
    this.html += markup;
    this.#afterText = false;
    return this;
  }
}

/** A path with a `.` or `..` segment, which a Link would resolve rather than keep. */
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:[/?#]|$)/;

/**
 * A Link's anchor in framework mode: its other props in their order, then
 * href and data-discover. `to` must be a site path (a leading slash, no dot
 * segment): React Router resolves anything else, and this does not.
 */
export function linkOpen(to: string, attributes = ""): string {
  if (!to.startsWith("/") || to.startsWith("//") || DOT_SEGMENT.test(to)) {
    throw new Error(`not a plain site path for a Link: ${to}`);
  }
  return `<a${attributes} href="${escaped(to)}" data-discover="true">`;
}

/** PostImage's <img> (app/components/post-image.tsx): srcSet and sizes only for an image the site resizes. */
export function postImageHtml({
  src,
  alt,
  lang,
  eager = false,
  className,
  sizes,
  width,
  height,
}: {
  src: string;
  alt: string;
  lang?: string;
  eager?: boolean;
  className?: string;
  sizes?: string;
  width: number;
  height: number;
}): string {
  const srcSet = imageSrcSet(src, width);
  return (
    "<img" +
    (className === undefined ? "" : ` class="${escaped(className)}"`) +
    ` src="${escaped(src)}"` +
    (srcSet ? ` srcSet="${escaped(srcSet)}"` : "") +
    (srcSet && sizes !== undefined ? ` sizes="${escaped(sizes)}"` : "") +
    ` alt="${escaped(alt)}"` +
    (lang === undefined ? "" : ` lang="${escaped(lang)}"`) +
    ` width="${width}" height="${height}" loading="${eager ? "eager" : "lazy"}" decoding="async"` +
    ` fetchPriority="${eager ? "high" : "low"}"/>`
  );
}
