import { romaniseWord } from "#app/content/roman-letters.ts";
import { readLexicon } from "./eval-roman-letters.ts";
const tune = readLexicon("hindi.wide.tune.tsv");
const dict = new Set(tune.keys());
// aksharas split points: split only before a consonant that starts an akshara (not after virama, not before a sign)
const SIGN = /[\u093E-\u094D\u0902\u0901\u0903\u093C]/;
let gain = 0, loss = 0, changed = 0;
const ex: string[] = [];
for (const [w, sp] of tune) {
  const cps = [...w];
  const ours = romaniseWord(w, "hindi");
  let best: string | null = null;
  for (let i = 2; i <= cps.length - 2; i++) {
    if (SIGN.test(cps[i]!) || cps[i - 1] === "\u094D") continue;
    const a = cps.slice(0, i).join(""), b = cps.slice(i).join("");
    if (a === w || b === w) continue;
    if (dict.has(a) && dict.has(b) && [...a].length >= 2 && [...b].length >= 3) {
      best = romaniseWord(a, "hindi") + romaniseWord(b, "hindi");
      break;
    }
  }
  if (best === null || best === ours) continue;
  changed++;
  const was = sp.has(ours), now = sp.has(best);
  if (now && !was) { gain++; if (ex.length < 30) ex.push(`+ ${w} ${ours} → ${best}`); }
  if (was && !now) { loss++; if (ex.length < 60) ex.push(`- ${w} ${ours} → ${best}`); }
}
console.log({ changed, gain, loss });
console.log(ex.join("\n"));
