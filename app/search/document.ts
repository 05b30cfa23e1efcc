// What the search index holds for a post, computed in our code at write time
// for every database: both write targets store what this computes, so both
// stores index alike (the SQLite functions sukti_fold, sukti_plain, … fold
// the same way only while a migration rebuilds the index).
import { htmlToWordText } from "#app/content/html-text.ts";
import { distinctWords, foldText, hasDevanagari } from "#app/search/fold.ts";
import { devanagariSkeletons } from "#app/search/roman.ts";

export interface SearchDocumentSource {
  title: string;
  /** The stored (sanitized) HTML of the post. */
  content: string;
  excerpt: string;
  /** The names of the post's tags and categories, as stored. */
  termNames: readonly string[];
  /** Where the post comes from: its person's names (every script), work and reference. */
  source?: readonly string[];
  /** searchText(title, content, excerpt), when the caller made it already (an import makes it on its reading thread). */
  text?: SearchText;
}

/** The part of a search document that depends on the record alone: most of its cost. */
export interface SearchText {
  /** Folded visible text and excerpt (searchBody). */
  body: string;
  /** The distinct words of the folded title and body, in order of first use. */
  words: string[];
}

export interface SearchDocument {
  /** Folded title. */
  title: string;
  /** Folded tag and category names. */
  tags: string;
  /** Folded visible text and excerpt. */
  body: string;
  /** The distinct words of title and body, for the word table (in order of first use). */
  words: string[];
}

/** The folded columns and new words of a published post, as search_source and its triggers compute them. */
export function searchDocument(source: SearchDocumentSource): SearchDocument {
  const title = foldText(source.title);
  // The source is searched with the tags: what the post is filed under, not its text.
  const origin = foldText((source.source ?? []).join(" "));
  const tags = [foldText(source.termNames.join(" ")), origin].filter((text) => text !== "").join(" ");
  const { body, words } = source.text ?? searchText(source.title, source.content, source.excerpt);
  return { title, tags, body, words: origin === "" ? words : withWords(words, origin.split(" ")) };
}

/** The folded body and the distinct words of title and body (searchDocument's costly part). */
export function searchText(title: string, content: string, excerpt: string): SearchText {
  const body = searchBody(content, excerpt);
  return { body, words: distinctWords(`${foldText(title)} ${body}`) };
}

/** `words` and then those of `more` not among them: distinctWords of both texts, without a set of the first's. */
function withWords(words: string[], more: readonly string[]): string[] {
  const added = more.filter((word, i) => !words.includes(word) && more.indexOf(word) === i);
  return added.length === 0 ? words : [...words, ...added];
}

/**
 * The folded visible text and excerpt of a post: most of a document's cost,
 * and the part that depends on the record alone (not on stored terms or people).
 */
export function searchBody(content: string, excerpt: string): string {
  return foldText(`${htmlToWordText(content)} ${excerpt}`);
}

/** The words a tag or category name adds to the word table. */
export function termWords(name: string): string[] {
  return distinctWords(foldText(name));
}

/** Devanagari words (any code point in U+0900–U+097F) get infix and skeleton lookups. */
export function isDevanagariWord(word: string): boolean {
  return hasDevanagari(word);
}

/** The romanisation skeletons of a folded word: none unless it is Devanagari. */
export function wordSkeletons(word: string): string[] {
  return isDevanagariWord(word) ? [...new Set(devanagariSkeletons(word))] : [];
}

/** The distinct code point trigrams of a folded word (as the FTS5 trigram tokenizer splits it). */
export function wordTrigrams(word: string): string[] {
  const points = [...word];
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= points.length; i++) trigrams.add(points.slice(i, i + 3).join(""));
  return [...trigrams];
}
