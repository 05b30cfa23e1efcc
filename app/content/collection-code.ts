// The address of a shared collection of quotes (decision 050):
// /c/{code}, where the code lists (language, idNum) pairs in the collection's
// order. Each pair is one unsigned LEB128 varint of idNum × 3 + the
// language's index in LANGUAGES, and the bytes are written in base64url
// without padding: a quote with an idNum under 42 takes one byte, under
// 5,461 two, under 699,050 three. Every list has exactly one code: a code
// that decodes but is not what encoding its list gives (an overlong varint,
// stray bits in the last character, a pair twice) is refused like garbage.
import { LANGUAGES, type Language } from "#app/content/languages.ts";

export interface CollectionEntry {
  language: Language;
  idNum: number;
}

/** The most quotes a shared collection holds. */
export const COLLECTION_MAX = 100;
/** Above it idNum × 3 + 2 would leave the integers a double holds exactly. */
const MAX_ID_NUM = 2 ** 50;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const CODE = /^[A-Za-z0-9_-]+$/;
/** The longest code COLLECTION_MAX pairs can give (8 varint bytes each at most). */
const MAX_CODE_LENGTH = Math.ceil((COLLECTION_MAX * 8 * 4) / 3);

export function collectionPath(entries: readonly CollectionEntry[]): string {
  return `/c/${encodeCollection(entries)}`;
}

/** The code of `entries` (the first COLLECTION_MAX, each pair once, in order). */
export function encodeCollection(entries: readonly CollectionEntry[]): string {
  const bytes: number[] = [];
  for (const { language, idNum } of collectionEntries(entries)) {
    let value = idNum * 3 + LANGUAGES.indexOf(language);
    while (value >= 128) {
      bytes.push((value % 128) + 128);
      value = Math.floor(value / 128);
    }
    bytes.push(value);
  }
  return toBase64Url(bytes);
}

/** The pairs of a code, or null when it is not the code of a list of 1 to COLLECTION_MAX pairs. */
export function decodeCollection(code: string): CollectionEntry[] | null {
  if (code.length === 0 || code.length > MAX_CODE_LENGTH || !CODE.test(code)) return null;
  const bytes = fromBase64Url(code);
  if (bytes === null) return null;
  const entries: CollectionEntry[] = [];
  let at = 0;
  while (at < bytes.length) {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = bytes[at++];
      if (byte === undefined) return null; // A varint cut short.
      value += (byte % 128) * scale;
      if (byte < 128) break;
      scale *= 128;
      if (scale > 2 ** 49) return null;
    }
    const language = LANGUAGES[value % 3];
    const idNum = Math.floor(value / 3);
    if (!language || idNum > MAX_ID_NUM) return null;
    entries.push({ language, idNum });
    if (entries.length > COLLECTION_MAX) return null;
  }
  // One code per list: anything written another way is not ours.
  return encodeCollection(entries) === code ? entries : null;
}

function toBase64Url(bytes: readonly number[]): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += ALPHABET.charAt((n >> 18) & 63) + ALPHABET.charAt((n >> 12) & 63);
    if (b !== undefined) out += ALPHABET.charAt((n >> 6) & 63);
    if (c !== undefined) out += ALPHABET.charAt(n & 63);
  }
  return out;
}

function fromBase64Url(code: string): number[] | null {
  if (code.length % 4 === 1) return null;
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of code) {
    buffer = (buffer << 6) | ALPHABET.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 255);
      buffer &= (1 << bits) - 1;
    }
  }
  return bytes;
}

/** What a store reads of a collection: known languages, whole idNums, each pair once, the first COLLECTION_MAX. */
export function collectionEntries(entries: readonly CollectionEntry[]): CollectionEntry[] {
  const seen = new Set<string>();
  const kept: CollectionEntry[] = [];
  for (const { language, idNum } of entries) {
    if (kept.length === COLLECTION_MAX) break;
    if (!LANGUAGES.includes(language) || !Number.isSafeInteger(idNum) || idNum < 0 || idNum > MAX_ID_NUM)
      continue;
    const key = `${language}:${idNum}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push({ language, idNum });
  }
  return kept;
}
