import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Language } from "#app/content/languages.ts";
import type { PostStatus } from "#app/content/model.ts";
import { type RandomSource, seededRandom } from "#app/content/sampling.ts";
import type { PostRecord } from "#app/content/schemas.ts";
import { slugify } from "#app/content/slugs.ts";

// A synthetic corpus for benchmarks: quote posts in the three languages, with
// the lengths, tags, statuses and dates a real site has. Everything comes
// from one seeded generator, so the same seed gives the same corpus.

interface Vocabulary {
  subjects: string[];
  predicates: string[];
  modifiers: string[];
  openers: string[];
  end: string;
  authors: string[];
  commentary: string[];
  tags: string[];
  categories: string[];
}

const ENGLISH: Vocabulary = {
  subjects: [
    "The mind",
    "A quiet heart",
    "Love",
    "Truth",
    "The seeker",
    "Every breath",
    "Silence",
    "The teacher",
    "Faith",
    "Patience",
    "The river",
    "A lamp in the window",
    "The soul",
    "Service",
    "Kindness",
    "The wise",
    "Courage",
    "Desire",
    "Prayer",
    "The path",
    "A grateful word",
    "The present moment",
    "Humility",
    "The lotus",
  ],
  predicates: [
    "is the light within",
    "outlasts a thousand storms",
    "carries the whole world",
    "says what words cannot",
    "knows the way home",
    "is its own reward",
    "opens every closed door",
    "cuts the root of sorrow",
    "flows with the river of time",
    "ripens into peace",
    "asks for nothing in return",
    "grows stronger when it is given away",
    "shelters the weary traveller",
    "turns the enemy into a friend",
    "needs no temple but the heart",
    "is found by those who stop running",
    "washes the dust from the mirror",
    "cannot be bought in any market",
  ],
  modifiers: [
    "when the ego is still",
    "only in silence",
    "like water on stone",
    "day after day",
    "in the smallest act",
    "as the sun rises over the hills",
    "before the first word is spoken",
    "for the one who listens",
    "even in the darkest night",
    "without counting the cost",
  ],
  openers: ["Remember this:", "Know that", "It is said that", "Believe me,", "In the end,", ""],
  end: ".",
  authors: [
    "Swami Vivekananda",
    "Rabindranath Tagore, Gitanjali",
    "Kabir, tr. Rabindranath Tagore",
    "The Dhammapada",
    "Sri Ramakrishna",
    "Mahatma Gandhi",
    "Tukaram, tr. J. Nelson Fraser",
  ],
  commentary: [
    "A reminder that the smallest daily practice outweighs the grandest intention.",
    "Read it slowly, twice: the second reading is always different from the first.",
    "The saints speak of the same truth in a hundred images; this is one of the plainest.",
    "Keep this one for the mornings when nothing seems to go right.",
  ],
  tags: [
    "Love",
    "Faith",
    "Truth",
    "Wisdom",
    "Courage",
    "Peace",
    "Devotion",
    "Service",
    "Kindness",
    "Patience",
    "Freedom",
    "Silence",
    "Self-effort",
    "Humility",
    "Gratitude",
    "Meditation",
    "Karma",
    "Life",
    "Death",
    "Time",
  ],
  categories: ["Teachings", "Poetry", "Scripture", "Stories", "Letters"],
};

const HINDI: Vocabulary = {
  subjects: [
    "मन",
    "प्रेम",
    "सत्य",
    "साधु",
    "गुरु का वचन",
    "भक्ति",
    "जीवन",
    "संसार",
    "ज्ञान",
    "धीरज",
    "करुणा",
    "आत्मा",
    "मौन",
    "सेवा",
    "विश्वास",
    "दीपक",
    "नदी",
    "समय",
    "सच्ची वाणी",
    "नम्रता",
  ],
  predicates: [
    "सबसे बड़ा धन है",
    "हृदय में बसता है",
    "अंधकार को मिटाता है",
    "मौन में प्रकट होता है",
    "हर दुःख की दवा है",
    "मन को निर्मल करता है",
    "राह दिखाता है",
    "कभी नहीं मरता",
    "धीरे-धीरे फल देता है",
    "बिना माँगे सब कुछ दे देता है",
    "अहंकार को गला देता है",
    "किसी बाज़ार में नहीं बिकता",
    "शत्रु को भी मित्र बना देता है",
    "प्रभु के द्वार तक ले जाता है",
  ],
  modifiers: [
    "जब अहंकार मिट जाता है",
    "जैसे सूरज की किरण",
    "हर साँस के साथ",
    "बिना कुछ माँगे",
    "सच्चे मन से",
    "दिन-रात",
    "प्रभु की कृपा से",
    "धीरे-धीरे",
    "अँधेरी रात में भी",
  ],
  openers: ["सुनो,", "याद रखो,", "कहते हैं", "सच तो यह है कि", ""],
  end: "।",
  authors: ["कबीर", "तुलसीदास", "रहीम", "सूरदास", "मीराबाई", "रैदास", "दादू दयाल"],
  commentary: [
    "संत कहते हैं कि छोटी-सी साधना भी रोज़ की जाए तो बड़ा फल देती है।",
    "इसे धीरे-धीरे दो बार पढ़िए; दूसरी बार अर्थ कुछ और ही खुलता है।",
    "यह दोहा सरल शब्दों में जीवन का गहरा सत्य कहता है।",
  ],
  tags: [
    "प्रेम",
    "सत्य",
    "भक्ति",
    "ज्ञान",
    "गुरु",
    "मन",
    "जीवन",
    "समय",
    "धैर्य",
    "करुणा",
    "सेवा",
    "विनम्रता",
    "शांति",
    "कर्म",
    "वाणी",
  ],
  categories: ["दोहे", "पद", "भजन", "प्रवचन", "साखी"],
};

const MARATHI: Vocabulary = {
  subjects: [
    "मन",
    "प्रेम",
    "सत्य",
    "संत",
    "गुरूंचे वचन",
    "भक्ती",
    "जीवन",
    "संसार",
    "ज्ञान",
    "संयम",
    "करुणा",
    "आत्मा",
    "शांतता",
    "सेवा",
    "श्रद्धा",
    "दिवा",
    "नदी",
    "वेळ",
    "नम्रता",
    "विठ्ठलाचे नाम",
  ],
  predicates: [
    "हेच खरे धन आहे",
    "हृदयात वसते",
    "अंधार दूर करते",
    "शांततेत प्रकट होते",
    "प्रत्येक दुःखावर औषध आहे",
    "मनाला निर्मळ करते",
    "वाट दाखवते",
    "कधीच संपत नाही",
    "हळूहळू फळ देते",
    "न मागता सर्व काही देते",
    "अहंकार वितळवते",
    "कोणत्याही बाजारात विकत मिळत नाही",
    "शत्रूलाही मित्र बनवते",
    "पंढरीच्या वाटेवर नेते",
  ],
  modifiers: [
    "जेव्हा अहंकार नाहीसा होतो",
    "सूर्यकिरणांसारखे",
    "प्रत्येक श्वासासोबत",
    "काहीही न मागता",
    "खऱ्या मनाने",
    "रात्रंदिवस",
    "देवाच्या कृपेने",
    "हळूहळू",
    "अंधाऱ्या रात्रीही",
  ],
  openers: ["ऐका,", "लक्षात ठेवा,", "संत सांगतात की", "खरे तर", ""],
  end: " ॥",
  authors: ["संत तुकाराम", "संत ज्ञानेश्वर", "समर्थ रामदास", "संत नामदेव", "संत एकनाथ", "संत जनाबाई"],
  commentary: [
    "संत सांगतात की रोजची छोटीशी साधनाही मोठे फळ देते.",
    "हा अभंग सावकाश दोनदा वाचा; दुसऱ्यांदा अर्थ वेगळाच उलगडतो.",
    "साध्या शब्दांत जीवनाचे खोल सत्य सांगणारा हा अभंग आहे.",
  ],
  tags: [
    "प्रेम",
    "सत्य",
    "भक्ती",
    "ज्ञान",
    "गुरू",
    "मन",
    "जीवन",
    "वेळ",
    "संयम",
    "करुणा",
    "सेवा",
    "नम्रता",
    "शांती",
    "कर्म",
    "विठ्ठल",
  ],
  categories: ["अभंग", "ओवी", "भारूड", "प्रवचन", "श्लोक"],
};

const VOCABULARY: Record<Language, Vocabulary> = { english: ENGLISH, hindi: HINDI, marathi: MARATHI };

// Card images shipped in public/images/cards, so generated posts show real pictures.
const IMAGES: Record<Language, string[]> = {
  english: [1, 2, 4, 5, 6].map((n) => `/images/cards/english-${n}.jpg`),
  hindi: [1, 2, 4, 6, 7].map((n) => `/images/cards/hindi-${n}.jpg`),
  marathi: [1, 2, 5, 6, 7].map((n) => `/images/cards/marathi-${n}.jpg`),
};

/** Language shares: English a little ahead, as on the original site. */
const LANGUAGE_WEIGHTS: [Language, number][] = [
  ["english", 0.4],
  ["hindi", 0.3],
  ["marathi", 0.3],
];
const STATUS_WEIGHTS: [PostStatus, number][] = [
  ["publish", 0.93],
  ["draft", 0.03],
  ["private", 0.02],
  ["pending", 0.01],
  ["trash", 0.01],
];
const FIRST_POST = Date.UTC(2016, 0, 1) / 1000;
const LAST_POST = Date.UTC(2026, 10, 1) / 1000;

function pick<T>(random: RandomSource, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("pick: nothing to pick from");
  return item;
}

function weighted<T>(random: RandomSource, choices: readonly [T, number][]): T {
  let r = random();
  for (const [value, weight] of choices) {
    r -= weight;
    if (r < 0) return value;
  }
  const last = choices.at(-1);
  if (last === undefined) throw new Error("weighted: nothing to choose from");
  return last[0];
}

/** Popular tags come up far more often than rare ones (weight 1/rank). */
function zipf<T>(random: RandomSource, items: readonly T[]): T {
  const total = items.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
  let r = random() * total;
  for (const [i, item] of items.entries()) {
    r -= 1 / (i + 1);
    if (r < 0) return item;
  }
  const last = items.at(-1);
  if (last === undefined) throw new Error("zipf: nothing to pick from");
  return last;
}

function sentence(random: RandomSource, words: Vocabulary, english: boolean): string {
  const opener = pick(random, words.openers);
  const subject = pick(random, words.subjects);
  const modifier = random() < 0.5 ? pick(random, words.modifiers) : "";
  const predicate = pick(random, words.predicates);
  let text = english
    ? [opener, opener ? subject.toLowerCase() : subject, predicate, modifier]
    : [opener, subject, modifier, predicate];
  text = text.filter(Boolean);
  const joined = text.join(" ");
  return `${joined.charAt(0).toUpperCase()}${joined.slice(1)}${words.end}`;
}

function titleFrom(line: string, english: boolean): string {
  const words = line
    .replace(/[.।॥:,]/g, "")
    .trim()
    .split(/\s+/);
  return words.slice(0, Math.min(words.length, english ? 7 : 6)).join(" ");
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function post(random: RandomSource, language: Language, idNum: number, postTime: number): PostRecord {
  const words = VOCABULARY[language];
  const english = language === "english";
  const paragraphs: string[] = [];
  const verses = 1 + Math.floor(random() * 3);
  let first = "";
  for (let v = 0; v < verses; v++) {
    const lines = Array.from({ length: 2 + Math.floor(random() * 3) }, () =>
      sentence(random, words, english),
    );
    if (v === 0) first = lines[0] ?? first;
    paragraphs.push(`<p>${lines.map(escapeHtml).join("<br>")}</p>`);
  }
  if (random() < 0.3) paragraphs.push(`<p><em>${escapeHtml(pick(random, words.commentary))}</em></p>`);
  if (random() < 0.75) paragraphs.push(`<p>— ${escapeHtml(pick(random, words.authors))}</p>`);
  const title = titleFrom(first, english);
  const tags = new Set<string>();
  const tagCount = 1 + Math.floor(random() * 4);
  while (tags.size < tagCount) tags.add(zipf(random, words.tags));
  const images = IMAGES[language];
  return {
    idNum,
    language,
    status: weighted(random, STATUS_WEIGHTS),
    postTime,
    title,
    slug: `${slugify(title)}-${idNum}`,
    featureImageUrl: images.length > 0 && random() < 0.6 ? pick(random, images) : "",
    content: paragraphs.join(""),
    excerpt: first,
    tags: [...tags],
    categories: [zipf(random, words.categories)],
  };
}

/** The corpus one post at a time, oldest first: memory stays flat for any count. */
export function* generatePosts({ count, seed = 1 }: { count: number; seed?: number }): Generator<PostRecord> {
  const random = seededRandom(seed);
  const nextId: Record<Language, number> = { english: 0, hindi: 0, marathi: 0 };
  const span = LAST_POST - FIRST_POST;
  for (let i = 0; i < count; i++) {
    const language = weighted(random, LANGUAGE_WEIGHTS);
    // Ids grow by one, with the odd gap a deleted post leaves.
    nextId[language] += random() < 0.02 ? 2 : 1;
    const postTime = Math.round(FIRST_POST + (span * (i + random())) / Math.max(count, 1));
    yield post(random, language, nextId[language], postTime);
  }
}

/** `count` synthetic post records, deterministic for a given seed. */
export function generateCorpus({ count, seed = 1 }: { count: number; seed?: number }): PostRecord[] {
  return Array.from(generatePosts({ count, seed }));
}

/** Writes the corpus as JSON (an array of post records) or NDJSON, to a file or stdout. */
export async function writeCorpus(options: {
  count: number;
  seed?: number;
  format: "json" | "ndjson";
  out?: string;
}): Promise<void> {
  const json = options.format === "json";
  async function* text() {
    if (json) yield "[\n";
    let first = true;
    for (const record of generatePosts(options)) {
      yield `${json && !first ? ",\n" : ""}${JSON.stringify(record)}${json ? "" : "\n"}`;
      first = false;
    }
    if (json) yield "\n]\n";
  }
  if (options.out) {
    await pipeline(Readable.from(text()), createWriteStream(options.out));
    return;
  }
  // stdout is never ended; a closed pipe (`sukti generate … | head`) just stops the output.
  for await (const chunk of text()) {
    if (!process.stdout.write(chunk)) {
      await Promise.race([once(process.stdout, "drain"), once(process.stdout, "error")]);
      if (process.stdout.destroyed) return;
    }
  }
}
