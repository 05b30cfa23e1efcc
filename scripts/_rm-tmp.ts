import { writeFileSync } from "node:fs";
import { romaniseWord } from "#app/content/roman-letters.ts";
import { readLexicon } from "./eval-roman-letters.ts";
const lang = (process.argv[2] ?? "hindi") as "hindi";
const lex = readLexicon(`${lang}.wide.tune.tsv`);
const out: string[] = [];
let hit = 0;
for (const [w, sp] of lex) {
  const ours = romaniseWord(w, lang);
  const ok = sp.has(ours);
  if (ok) hit++;
  out.push([w, ours, ok ? 1 : 0, [...sp].map(([s, c]) => `${s}:${c}`).join(",")].join("\t"));
}
writeFileSync(`/tmp/${lang}-tune.tsv`, out.join("\n"));
console.log(hit, lex.size, (hit / lex.size * 100).toFixed(2));
