// One letter off (typos), the last resort of romanised search (decision 042).
// What no habit explains is mostly one slip: a letter left out (idhan for
// इंधन, antvaiyktik), one too many (asdhisoochna), one swapped for another
// (ultimatam) or two letters crossed (apvtrit for अपवर्तित). Search engines
// forgive one such slip in a longer word; so does ours, on skeletons, and
// only for a query word that matches nothing at all otherwise
// (expand.ts, readNear): it never adds guesses to a word that
// has matches.
import { pronunciationSkeletons } from "#app/search/english-pronunciation.ts";

/** Skeletons shorter than this are not read one letter off: a short skeleton's neighbours are other words. */
export const MIN_NEAR_SKELETON = 5;

/** The letters a skeleton can hold: latinSkeleton maps every Latin word onto these (an a only first). */
const SKELETON_LETTERS = [..."bcdeghijklmnoprstuvy"];

/** Whether a string could be a skeleton: no a but a first one, no letter twice in a row. */
function couldBeSkeleton(s: string): boolean {
  return s.length > 0 && s.indexOf("a", 1) === -1 && !/(.)\1/.test(s);
}

/**
 * The skeletons one edit away from `skeleton` (Damerau–Levenshtein distance
 * 1: a letter left out, added, replaced, or two neighbours swapped) after its
 * first letter, which people rarely get wrong (and which keeps the lookup
 * smaller); itself excluded; none for a skeleton shorter than
 * MIN_NEAR_SKELETON.
 */
export function nearSkeletons(skeleton: string): string[] {
  if (skeleton.length < MIN_NEAR_SKELETON) return [];
  const out = new Set<string>();
  const n = skeleton.length;
  for (let i = 1; i <= n; i++) {
    const head = skeleton.slice(0, i);
    for (const letter of SKELETON_LETTERS) {
      out.add(head + letter + skeleton.slice(i)); // added
      if (i < n) out.add(head + letter + skeleton.slice(i + 1)); // replaced
    }
    if (i < n) out.add(head + skeleton.slice(i + 1)); // left out
    if (i < n - 1) out.add(head + skeleton[i + 1] + skeleton[i] + skeleton.slice(i + 2)); // swapped
  }
  out.delete(skeleton);
  return [...out].filter(couldBeSkeleton);
}

/**
 * The skeletons a Latin query word is read with one letter off: near its
 * skeletons, or, for an English word of the pronouncing dictionary, near the
 * ways it is said only (a word spelled right is no typo of its own spelling).
 */
export function nearQuerySkeletons(latinWord: string, skeletons: readonly string[]): string[] {
  const said = pronunciationSkeletons(latinWord);
  return nearAnyOf(said.length > 0 ? said : skeletons);
}

/** Near skeletons looked up for one query word at most (its first spellings' come first). */
export const MAX_NEAR_SKELETONS = 2000;

/** The skeletons one edit from any of a query word's `skeletons` and none of them, at most MAX_NEAR_SKELETONS. */
export function nearAnyOf(skeletons: readonly string[]): string[] {
  const own = new Set(skeletons);
  const near = new Set<string>();
  for (const skeleton of skeletons) {
    for (const candidate of nearSkeletons(skeleton)) {
      if (near.size >= MAX_NEAR_SKELETONS) break;
      if (!own.has(candidate)) near.add(candidate);
    }
  }
  return [...near];
}
