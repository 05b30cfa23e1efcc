import { readFileSync } from "node:fs";
import { romaniseWord } from "#app/content/roman-letters.ts";
const ws = JSON.parse(readFileSync("/tmp/rs/words.json", "utf8")) as string[];
console.log(JSON.stringify(ws.map((w) => romaniseWord(w, (process.env.LANG_R ?? "hindi") as "hindi"))));
