// A random published post (the API's /api/v1/random, decision 062), chosen
// uniformly among a language's published posts (or all of them) without
// ORDER BY random() over the table. Each store answers four small reads
// (RandomPostReads, in SQL of its own); the draws are made here, once, so
// both stores given the same random source pick the same post.
//
// First up to RANDOM_TRIES draws of an idNum between the published minimum
// and maximum (one seek each on (language, id_num)): a draw that names a
// published post is uniform among them. Ids with gaps (drafts, imported
// WordPress ids shared with pages and attachments) may miss every draw; then
// a draw of an offset below the count (two walks of a partial index, as the
// quote of the day does once a day). Either way every published post is
// equally likely.
import { LANGUAGES, type Language } from "#app/content/languages.ts";
import type { PostSummary } from "#app/content/model.ts";
import type { RandomSource } from "#app/content/sampling.ts";

/** Seeks on an idNum before falling back to a count and an offset. */
export const RANDOM_TRIES = 4;

export interface IdRange {
  language: Language;
  /** The smallest and largest idNum of the language's published posts. */
  min: number;
  max: number;
}

/** What a store answers for randomPost: all published posts only. */
export interface RandomPostReads {
  /** Each language's published idNum range, in the order given; a language without published posts left out. */
  idRanges(languages: readonly Language[]): Promise<IdRange[]>;
  /** The published post with this idNum, or null. */
  publishedWithIdNum(language: Language, idNum: number): Promise<PostSummary | null>;
  /** Published posts of the language, or of every language (null). */
  countPublished(language: Language | null): Promise<number>;
  /** The published post at `offset` newest first, of the language or of every language (null). */
  publishedAt(language: Language | null, offset: number): Promise<PostSummary | null>;
}

export async function pickRandomPost(
  reads: RandomPostReads,
  language: Language | null,
  random: RandomSource,
): Promise<PostSummary | null> {
  const ranges = await reads.idRanges(language === null ? LANGUAGES : [language]);
  const span = ranges.reduce((sum, range) => sum + (range.max - range.min + 1), 0);
  if (span <= 0) return null;
  for (let i = 0; i < RANDOM_TRIES; i++) {
    let slot = Math.floor(random() * span);
    for (const range of ranges) {
      const size = range.max - range.min + 1;
      if (slot < size) {
        const post = await reads.publishedWithIdNum(range.language, range.min + slot);
        if (post) return post;
        break;
      }
      slot -= size;
    }
  }
  const count = await reads.countPublished(language);
  if (count === 0) return null;
  // A post unpublished between the count and the read shortens the list: the newest then.
  const offset = Math.floor(random() * count);
  return (await reads.publishedAt(language, offset)) ?? (await reads.publishedAt(language, 0));
}
