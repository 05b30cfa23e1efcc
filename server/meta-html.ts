// A route's meta descriptors written as React Router's <Meta/> renders them
// inside the page's <head> (React 19 hoists <title>, <meta> and <link> among
// the head's other tags, and leaves a <script> where it stands): for a page
// made without React (post-page.ts). Only the attributes the site's meta
// functions use are written; anything else is refused, and that page is
// rendered the long way.
import { escaped } from "#app/components/react-markup.ts";
import { escapedForScript } from "./turbo-stream.ts";

/** A descriptor this cannot write the way React would (an unknown attribute, a javascript: URL…). */
export class UnwrittenMeta extends Error {}

/** Attributes written as React writes them: their names unchanged, their values escaped. */
const PLAIN_ATTRIBUTES = new Set([
  "name",
  "content",
  "property",
  "rel",
  "href",
  "hrefLang",
  "type",
  "title",
  "media",
  "sizes",
]);

/** Whether a URL starts (after spaces and control characters) with a j: a javascript: URL React would rewrite. */
function mayBeJavaScript(url: string): boolean {
  let at = 0;
  while (at < url.length && url.charCodeAt(at) <= 0x20) at++;
  return url[at] === "j" || url[at] === "J";
}

function attributes(props: Record<string, unknown>): string {
  let out = "";
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (!PLAIN_ATTRIBUTES.has(name)) throw new UnwrittenMeta(`meta attribute ${name}`);
    if (typeof value !== "string" && typeof value !== "number")
      throw new UnwrittenMeta(`meta ${name}: ${typeof value}`);
    const said = String(value);
    // React blocks javascript: URLs; the long way shows what it does instead.
    if (name === "href" && mayBeJavaScript(said)) throw new UnwrittenMeta("an href React may rewrite");
    out += ` ${name}="${escaped(said)}"`;
  }
  return out;
}

export interface MetaHtml {
  /** <title>, <meta> and <link> elements, in order: React writes them among the head's hoisted tags. */
  hoisted: string;
  /** The JSON-LD <script> elements, in order: where <Meta/> stands. */
  scripts: string;
}

/** A leaf route's meta (React Router uses the deepest route's) as <Meta/> writes it. */
export function metaHtml(descriptors: readonly unknown[]): MetaHtml {
  let hoisted = "";
  let scripts = "";
  for (const descriptor of descriptors.flat()) {
    if (!descriptor) continue;
    if (typeof descriptor !== "object") throw new UnwrittenMeta(`a ${typeof descriptor} descriptor`);
    const props = descriptor as Record<string, unknown>;
    if ("tagName" in props) {
      const { tagName, ...rest } = props;
      if (tagName !== "meta" && tagName !== "link") throw new UnwrittenMeta(`tagName ${String(tagName)}`);
      hoisted += `<${tagName}${attributes(rest)}/>`;
    } else if ("title" in props) {
      hoisted += `<title>${escaped(String(props.title))}</title>`;
    } else if ("charset" in props || "charSet" in props) {
      throw new UnwrittenMeta("charSet");
    } else if ("script:ld+json" in props) {
      const json = JSON.stringify(props["script:ld+json"]);
      if (json === undefined) continue;
      scripts += `<script type="application/ld+json">${escapedForScript(json)}</script>`;
    } else {
      hoisted += `<meta${attributes(props)}/>`;
    }
  }
  return { hoisted, scripts };
}
