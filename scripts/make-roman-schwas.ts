// `npx tsx scripts/make-roman-schwas.ts`: writes app/content/roman-schwas.txt,
// the Marathi schwas Roman letters write as the tune halves' writers did
// (Aksharantar's and Dakshina's: app/content/roman-letters.ts, decisions 083, 096). `-- --dev` writes nothing and
// prints what the table gains on words it was not learned from: it learns on
// the wide tune half without the large tune sample and scores that sample.
//
// How it learns: each tune word is written by the rules alone; then each of
// its schwa decisions is turned the other way, one at a time. Where that
// turns a miss into an attested spelling, the turned decision gets a vote in
// each of the decision's contexts (schwaContexts); where it turns a hit into
// a miss, the rules' decision gets one. A context keeps the decision of at
// least MIN_VOTES votes and MIN_SHARE of them. Only the held-out half is never
// read here.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  type RomanLanguage,
  romaniseWord,
  rulesOnly,
  SCHWA_DROP,
  SCHWA_KEEP,
  SCHWAS_FILE,
  type SchwaChooser,
  withSchwaChooser,
} from "#app/content/roman-letters.ts";

const ROOT = path.join(import.meta.dirname, "..");
const LEXICONS = path.join(ROOT, "tests", "fixtures", "romanised");
/**
 * Chosen on the large tune sample with --dev: 2 and 0.75 +34 words of 1,518
 * (3: +27; finals learned too: +41, but काय kaya, निरोप niropa).
 */
const MIN_VOTES = 2;
const MIN_SHARE = 0.75;
const LANGUAGE: RomanLanguage = "marathi";

function lexicon(file: string): Map<string, Set<string>> {
  const words = new Map<string, Set<string>>();
  for (const line of readFileSync(path.join(LEXICONS, file), "utf8").split("\n").slice(1)) {
    const [devanagari, romanised] = line.split("\t");
    if (!devanagari || !romanised) continue;
    const spellings = words.get(devanagari) ?? new Set<string>();
    spellings.add(romanised);
    words.set(devanagari, spellings);
  }
  return words;
}

/** The table learned from `words`: context → drop (true) or keep (false). */
function learn(words: Map<string, Set<string>>): Map<string, boolean> {
  let flipAt = -1;
  let seen = 0;
  let decisions: { contexts: [string, string]; drop: boolean }[] = [];
  const flipping: SchwaChooser = (contexts, _language, rulesDrop) => {
    const drop = seen === flipAt ? !rulesDrop : rulesDrop;
    seen++;
    decisions.push({ contexts, drop });
    return drop;
  };
  const write = (word: string, flip: number) => {
    flipAt = flip;
    seen = 0;
    decisions = [];
    // A chooser of its own each time: the words written are not kept across it.
    return withSchwaChooser(flipping, () => romaniseWord(word, LANGUAGE));
  };
  const votes = new Map<string, { keep: number; drop: number }>();
  for (const [word, spellings] of words) {
    const hit = spellings.has(write(word, -1));
    const made = decisions;
    for (let d = 0; d < made.length; d++) {
      const flippedHit = spellings.has(write(word, d));
      if (flippedHit === hit) continue;
      const decision = made[d] as { contexts: [string, string]; drop: boolean };
      // A word's last a stays with the rules: its writers' finals are the noisiest (काय kaya, रोप ropa).
      if (decision.contexts[0].startsWith("F")) continue;
      // The better decision: the turned one if it hits, else the rules'.
      const dropWins = flippedHit ? !decision.drop : decision.drop;
      for (const context of decision.contexts) {
        const vote = votes.get(context) ?? { keep: 0, drop: 0 };
        if (dropWins) vote.drop++;
        else vote.keep++;
        votes.set(context, vote);
      }
    }
  }
  const table = new Map<string, boolean>();
  for (const [context, { keep, drop }] of votes) {
    const total = keep + drop;
    if (total >= MIN_VOTES && Math.max(keep, drop) / total >= MIN_SHARE) table.set(context, drop > keep);
  }
  return table;
}

function score(words: Map<string, Set<string>>, chooser: SchwaChooser): number {
  return withSchwaChooser(chooser, () => {
    let hits = 0;
    for (const [word, spellings] of words) if (spellings.has(romaniseWord(word, LANGUAGE))) hits++;
    return hits;
  });
}

function chooserOf(table: Map<string, boolean>): SchwaChooser {
  return (contexts, language, rulesDrop) => {
    if (language !== LANGUAGE || contexts[0].startsWith("F")) return rulesDrop;
    for (const context of contexts) {
      const drop = table.get(context);
      if (drop !== undefined) return drop;
    }
    return rulesDrop;
  };
}

// Both tune halves: a word in both (the split is by word) takes Dakshina's spellings, several writers'.
const wide = new Map([...lexicon(`${LANGUAGE}.wide.tune.tsv`), ...lexicon(`${LANGUAGE}.dakshina.tune.tsv`)]);
if (process.argv.includes("--dev")) {
  const sample = lexicon(`${LANGUAGE}.large.tune.tsv`);
  const rest = new Map([...wide].filter(([word]) => !sample.has(word)));
  const table = learn(rest);
  const before = score(sample, rulesOnly);
  const after = score(sample, chooserOf(table));
  const pct = (n: number) => ((100 * n) / sample.size).toFixed(1);
  console.log(
    `${LANGUAGE} large tune sample, table learned on the other ${rest.size.toLocaleString("en")} wide tune words (${table.size.toLocaleString("en")} contexts): rules ${before} (${pct(before)}%), with the table ${after} (${pct(after)}%) of ${sample.size}`,
  );
} else {
  const table = learn(wide);
  const lines = [...table]
    .map(([context, drop]) => `${context} ${drop ? SCHWA_DROP : SCHWA_KEEP}`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const header = [
    "# Marathi schwas in Roman letters as the writers of the tune halves wrote them (decisions 083, 096).",
    "# Made by scripts/make-roman-schwas.ts from tests/fixtures/romanised/marathi.wide.tune.tsv (Aksharantar,",
    "# AI4Bharat, CC BY 4.0) and marathi.dakshina.tune.tsv (Dakshina, Google Research, CC BY-SA 4.0): see",
    "# SOURCE.md there. A line: context, then a (written) or - (left out).",
  ];
  writeFileSync(path.join(ROOT, SCHWAS_FILE), `${[...header, ...lines].join("\n")}\n`);
  console.log(`${SCHWAS_FILE}: ${lines.length.toLocaleString("en")} contexts`);
}
