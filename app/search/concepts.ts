// Across languages (decision 037): "love" also finds प्रेम, "peace" शांति and
// शांती. A small curated lexicon of the site's vocabulary, in a data file an
// operator can extend (app/search/concepts.json, docs/search.md); its words
// are folded as search folds text and matched whole.
import lexicon from "./concepts.json";
import { foldWords } from "./fold.ts";

const related = new Map<string, Set<string>>();
for (const group of lexicon.groups) {
  const words = [...new Set(group.flatMap((entry) => foldWords(entry)))];
  for (const word of words) {
    const others = related.get(word) ?? new Set<string>();
    for (const other of words) if (other !== word) others.add(other);
    related.set(word, others);
  }
}

/** The words of other languages (and synonyms) that mean what `foldedWord` means. */
export function conceptWords(foldedWord: string): string[] {
  return [...(related.get(foldedWord) ?? [])];
}
