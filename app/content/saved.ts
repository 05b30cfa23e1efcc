// Saved quotes (decision 050): kept in the reader's browser
// only, in localStorage, never sent to the server. Each entry holds what
// /saved needs to list it without the network. Newest saved first.
import { useSyncExternalStore } from "react";
import { isLanguage, type Language, postPath } from "#app/content/languages.ts";
import { LIST_CARD_SCHEMES, listCardPath } from "#app/share-image/list-card.ts";

export interface SavedQuote {
  language: Language;
  idNum: number;
  slug: string;
  title: string;
  excerpt: string;
  image: string;
  /**
   * A post without an image of its own: its list card's version
   * (app/share-image/list-card.ts), which /saved shows instead of the
   * default image, as lists do (decision 064). Absent in quotes saved before.
   */
  cardVersion?: string | null;
  /** Epoch milliseconds. */
  savedAt: number;
}

const KEY = "saved-quotes";
/** Said within the page when this tab changes the list (the `storage` event only reaches other tabs). */
const CHANGED = "saved-quotes-changed";
/** Beyond it the oldest saves are dropped: a few hundred kB of localStorage at most. */
const MAX_SAVED = 500;

let cachedRaw: string | null | undefined;
let cachedList: SavedQuote[] = [];

/** A list card's version as listCardVersion writes it: anything else in the browser's storage is left out. */
const CARD_VERSION = /^[0-9a-z]{1,16}$/;

function isSavedQuote(value: unknown): value is SavedQuote {
  const v = value as Partial<SavedQuote> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    isLanguage(v.language) &&
    Number.isSafeInteger(v.idNum) &&
    typeof v.slug === "string" &&
    typeof v.title === "string" &&
    typeof v.excerpt === "string" &&
    typeof v.image === "string" &&
    (v.cardVersion === undefined || v.cardVersion === null || CARD_VERSION.test(String(v.cardVersion))) &&
    typeof v.savedAt === "number"
  );
}

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null; // Storage turned off: nothing saved.
  }
}

/** The saved quotes, newest saved first (the same array until the list changes). */
export function savedQuotes(): SavedQuote[] {
  const raw = readRaw();
  if (raw === cachedRaw) return cachedList;
  cachedRaw = raw;
  let parsed: unknown = [];
  try {
    parsed = raw === null ? [] : JSON.parse(raw);
  } catch {
    parsed = [];
  }
  cachedList = (Array.isArray(parsed) ? parsed.filter(isSavedQuote) : []).sort(
    (a, b) => b.savedAt - a.savedAt,
  );
  return cachedList;
}

function write(list: SavedQuote[]): boolean {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX_SAVED)));
  } catch {
    return false; // Full or turned off: the button keeps saying what is true.
  }
  window.dispatchEvent(new Event(CHANGED));
  // For the service worker (decision 049): the pages and images to keep for offline reading.
  navigator.serviceWorker?.controller?.postMessage({
    type: "saved-quotes",
    paths: list.map((quote) => postPath(quote.language, quote.slug)),
    images: list.flatMap(savedImages),
  });
  return true;
}

/** The widths /saved's 5rem thumbnail picks from, up to a 4× screen. */
const SAVED_CARD_WIDTHS = [160, 320];

/** What /saved shows of a quote, for the worker to keep: its image, or its card in both schemes. */
function savedImages(quote: SavedQuote): string[] {
  const version = quote.cardVersion;
  if (!version) return [quote.image];
  return LIST_CARD_SCHEMES.flatMap((scheme) =>
    SAVED_CARD_WIDTHS.map((width) => listCardPath(quote, version, scheme, width)),
  );
}

const same = (a: Pick<SavedQuote, "language" | "idNum">, b: Pick<SavedQuote, "language" | "idNum">) =>
  a.language === b.language && a.idNum === b.idNum;

export function isSaved(list: readonly SavedQuote[], quote: Pick<SavedQuote, "language" | "idNum">): boolean {
  return list.some((entry) => same(entry, quote));
}

/** Saves the quote (newest first) or, when it is saved, removes it; whether the list changed. */
export function toggleSaved(quote: Omit<SavedQuote, "savedAt">): boolean {
  const list = savedQuotes();
  if (isSaved(list, quote)) return write(list.filter((entry) => !same(entry, quote)));
  return write([{ ...quote, savedAt: Date.now() }, ...list]);
}

export function removeSaved(quote: Pick<SavedQuote, "language" | "idNum">): boolean {
  return write(savedQuotes().filter((entry) => !same(entry, quote)));
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY || event.key === null) onChange();
  };
  window.addEventListener("storage", onStorage);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(CHANGED, onChange);
  };
}

/** The saved quotes, kept in step across components and tabs; null on the server and before hydration. */
export function useSavedQuotes(): SavedQuote[] | null {
  return useSyncExternalStore<SavedQuote[] | null>(subscribe, savedQuotes, () => null);
}
