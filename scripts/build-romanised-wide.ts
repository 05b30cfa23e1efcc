// Builds tests/fixtures/romanised/{hindi,marathi}.wide.{tune,heldout}.tsv: the
// two halves of the whole of each attested lexicon (every eligible word, in the
// half its SHA-256 puts it, the rule of SOURCE.md "Split"): the tune half for
// choosing the romaniser's rules on 15,000 and 28,000 words rather than 1,500,
// the held-out half for measuring them on as many. No word is in both: the
// split is by word. Usage, with the source files of SOURCE.md:
//   tsx scripts/build-romanised-wide.ts <dakshina hi.translit.sampled.{train,dev,test}.tsv, concatenated>
//     <aksharantar mar_{train,valid,test}.csv, concatenated>
// and marathi.dakshina.{tune,heldout}.tsv, the same halves of Dakshina's Marathi lexicon:
//   tsx scripts/build-romanised-wide.ts --marathi-dakshina <mr.translit.sampled.{train,dev,test}.tsv, concatenated>
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { foldWords } from "#app/search/fold.ts";

const DIR = path.join(import.meta.dirname, "..", "tests", "fixtures", "romanised");

function build(pairs: [string, string, number][], name: string): void {
  for (const part of ["tune", "heldout"] as const) buildPart(pairs, `${name}.${part}.tsv`, part);
}

function buildPart(pairs: [string, string, number][], file: string, part: "tune" | "heldout"): void {
  const words = new Map<string, Map<string, number>>();
  for (const [native, roman, count] of pairs) {
    const word = native.normalize("NFC").trim();
    const spelling = roman.normalize("NFC").trim().toLowerCase();
    if (!/^[\u0900-\u097F]+$/.test(word) || foldWords(word).length !== 1 || !/^[a-z]+$/.test(spelling))
      continue;
    const tune = (createHash("sha256").update(word, "utf8").digest()[0] ?? 0) < 128;
    if (tune !== (part === "tune")) continue;
    const spellings = words.get(word) ?? new Map<string, number>();
    spellings.set(spelling, (spellings.get(spelling) ?? 0) + count);
    words.set(word, spellings);
  }
  const rows = ["devanagari\tromanised\tcount"];
  for (const [word, spellings] of [...words].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const sorted = [...spellings].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)).slice(0, 8);
    for (const [spelling, count] of sorted) rows.push(`${word}\t${spelling}\t${count}`);
  }
  writeFileSync(path.join(DIR, file), `${rows.join("\n")}\n`);
  console.log(`${file}: ${words.size} words, ${rows.length - 1} rows`);
}

/** A source file's pairs: `separator`-split lines whose columns are in `order`, and a count (1 where there is none). */
function readPairs(
  file: string,
  separator: string,
  order: "native, romanised" | "romanised, native",
): [string, string, number][] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [a = "", b = "", count = "1"] = line.split(separator);
      return order === "native, romanised" ? [a, b, Number(count) || 1] : [b, a, Number(count) || 1];
    });
}

const [first, second] = process.argv.slice(2);
if (first === "--marathi-dakshina" && second) {
  // Dakshina's own layout: native, romanised, count.
  build(readPairs(second, "\t", "native, romanised"), "marathi.dakshina");
  process.exit(0);
}
const [hindi, marathi] = [first, second];
if (!hindi || !marathi) {
  console.error(
    "usage: tsx scripts/build-romanised-wide.ts <hindi dakshina tsv> <marathi aksharantar csv>\n" +
      "       tsx scripts/build-romanised-wide.ts --marathi-dakshina <marathi dakshina tsv>",
  );
  process.exit(2);
}
// Dakshina as copied (SOURCE.md): romanised, native, count.
build(readPairs(hindi, "\t", "romanised, native"), "hindi.wide");
// Aksharantar: romanised,native; no counts (a pair's count is how often it appears).
build(readPairs(marathi, ",", "romanised, native"), "marathi.wide");
