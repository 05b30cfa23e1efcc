import { readText, type TextEncoding } from "#cli/import-json.ts";

/** wp:post_name is percent-encoded UTF-8 ("%e0%a4%b8…" for Devanagari). */
export function decodeSlug(postName: string): string {
  try {
    return decodeURIComponent(postName);
  } catch {
    return postName; // malformed: the schema refuses its "%" with a clear message
  }
}

/** wp:post_name or wp:post_type, as WordPress writes them (CDATA or plain text). */
const NAME_OR_TYPE = /<wp:post_(name|type)>\s*(?:<!\[CDATA\[([\s\S]*?)\]\]>|([^<]*?))\s*<\/wp:post_\1>/g;
const TAG_START = "<wp:post_";

/**
 * The wp:post_name of every post (wp:post_type post) of the file,
 * percent-decoded, NFC: the slugs a draft's derived slug must not take (a
 * draft titled as a published post further on would otherwise clash with it
 * and reject the file; decision 054). WordPress writes an item's post_name
 * before its post_type. A quick scan of the text, not an XML parse (a file
 * binding WordPress's namespace to another prefix is not scanned); a name it
 * misses leaves today's check, which refuses two posts with one slug. Errors
 * are left to the real read.
 */
export async function explicitSlugs(file: string, encoding: TextEncoding): Promise<Set<string>> {
  const slugs = new Set<string>();
  let tail = "";
  let name = "";
  try {
    for await (const chunk of readText(file, { bytes: 0 }, encoding)) {
      const text = tail + chunk;
      let end = 0;
      for (const match of text.matchAll(NAME_OR_TYPE)) {
        const value = (match[2] ?? match[3] ?? "").trim();
        if (match[1] === "name") name = decodeSlug(value).normalize("NFC");
        else {
          if (value === "post" && name !== "") slugs.add(name);
          name = "";
        }
        end = match.index + match[0].length;
      }
      const open = text.lastIndexOf(TAG_START);
      tail = open >= end ? text.slice(open) : text.slice(-TAG_START.length);
      if (tail.length > 4096) tail = ""; // no slug is that long: not a post name
    }
  } catch {
    // Bad bytes or a vanished file: the XML read that follows says so, naming the record.
  }
  return slugs;
}
