import { romaniseWord } from "../app/content/roman-letters.ts";
for (const w of process.argv.slice(2)) console.log(w, romaniseWord(w, "hindi"));
