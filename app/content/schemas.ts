import { z } from "zod";
import { MAX_EPOCH_SECONDS } from "#app/content/dates.ts";
import { LANGUAGES, type Language } from "#app/content/languages.ts";
import { POST_STATUSES } from "#app/content/model.ts";
import { RESERVED_SLUGS, slugify } from "#app/content/slugs.ts";
import { isBlankTitle, titleFromContent } from "#app/content/untitled.ts";

// Every record the importer reads (and the demo dataset) goes through these
// schemas: they accept the loose shapes real exports have (language codes,
// numeric strings, Firestore timestamps) and output one strict shape.

const LANGUAGE_ALIASES: Record<string, Language> = {
  english: "english",
  en: "english",
  hindi: "hindi",
  hi: "hindi",
  marathi: "marathi",
  mr: "marathi",
};

/** english/hindi/marathi in any case, or en/hi/mr; null for anything else. */
export function parseLanguage(value: unknown): Language | null {
  if (typeof value !== "string") return null;
  return LANGUAGE_ALIASES[value.trim().toLowerCase()] ?? null;
}

/** Highest idNum accepted: far below 2^53, leaving room for the writer's temporary renumbering. */
export const MAX_ID_NUM = 999_999_999_999;

// Limits of a record (decision 043, docs/import.md). Lengths count characters
// as JavaScript does (UTF-16 code units: one per Devanagari letter or mark),
// except the whole record, which counts the bytes of the file. The importer
// checks them; the serving side may rely on them for what it imports.

/** A whole record as the file holds it (a JSON element, an NDJSON line, a WXR <item>'s text), in bytes. */
export const MAX_RECORD_BYTES = 1024 * 1024;
/** A post's or page's HTML: an essay of some 40,000 words; quotes are a few hundred characters. */
export const MAX_CONTENT_LENGTH = 256 * 1024;
export const MAX_TITLE_LENGTH = 500;
export const MAX_SLUG_LENGTH = 200;
export const MAX_EXCERPT_LENGTH = 10_000;
export const MAX_IMAGE_URL_LENGTH = 2048;
/** A post's recording: an http(s) address or a path under the site's folder (decision 052). */
export const MAX_AUDIO_URL_LENGTH = 2048;
/** Each tag or category name, and how many of each a post has. */
export const MAX_TERM_NAME_LENGTH = 200;
export const MAX_TERMS = 100;
export const MAX_TRANSLATION_KEY_LENGTH = 200;
export const MAX_PERSON_NAME_LENGTH = 200;
/** A person's line about them (years, one sentence; decision 066), per language. */
export const MAX_PERSON_ABOUT_LENGTH = 300;
/** A source's work and reference, each. */
export const MAX_SOURCE_TEXT_LENGTH = 500;
/** Input quoted in a message is cut to this many characters, with "…". */
export const MAX_QUOTED_LENGTH = 80;

/**
 * C0 controls but tab, newline and carriage return; DEL; C1 controls. None
 * belongs in a page (a NUL in <title>, a BEL in a feed is invalid XML).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** The text without control characters (tab, newline and carriage return stay). */
export function stripControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, "");
}

/** At most `max` characters of `text`, "…" marking a cut (never inside a surrogate pair). */
export function cutText(text: string, max = MAX_QUOTED_LENGTH): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/**
 * A value for a message: a string quoted as JSON and cut to MAX_QUOTED_LENGTH
 * characters, a number as it is, other values by their kind. Never the whole
 * of a large value.
 */
export function quote(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(cutText(value));
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "bigint") return cutText(`${value}n`);
  if (typeof value === "function" || typeof value === "symbol") return `a ${typeof value}`;
  return cutText(String(value));
}

const tooLong = (max: number) => `is longer than ${max.toLocaleString("en")} characters`;

/** Trimmed, NFC, control characters removed. */
const trimmed = (value: unknown) =>
  typeof value === "string" ? stripControlCharacters(value.normalize("NFC")).trim() : value;

/** Text kept as written but for control characters (HTML, excerpts). */
const cleaned = (value: unknown) => (typeof value === "string" ? stripControlCharacters(value) : value);

const slugSchema = z.preprocess(
  trimmed,
  z
    .string()
    .min(1, "is empty")
    .max(MAX_SLUG_LENGTH, tooLong(MAX_SLUG_LENGTH))
    .refine((slug) => !/[/?#\\\s%]/u.test(slug), "may not contain /, \\, ?, #, % or spaces")
    .refine((slug) => slug !== "." && slug !== "..", "may not be . or ..")
    .refine((slug) => !RESERVED_SLUGS.has(slug.toLowerCase()), {
      error: (issue) => `${quote(issue.input)} is reserved by a route`,
    }),
);

const languageSchema = z.preprocess(
  (value) => parseLanguage(value) ?? value,
  z.enum(LANGUAGES, {
    error: (issue) =>
      issue.input === undefined
        ? "is missing"
        : `unknown language ${quote(issue.input)} (use english, hindi or marathi, or en, hi, mr)`,
  }),
);

const idNumSchema = z.preprocess(
  (value) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  z
    .number({
      error: (issue) =>
        issue.input === undefined ? "is missing" : `must be a number, not ${quote(issue.input)}`,
    })
    .int("must be a whole number")
    .nonnegative("must not be negative")
    .max(MAX_ID_NUM, `must be at most ${MAX_ID_NUM}`),
);

/** Epoch seconds; also a numeric string or a Firestore timestamp ({seconds} or {_seconds}). */
const postTimeSchema = z.preprocess(
  (value) => {
    if (typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) return Number(value);
    if (value && typeof value === "object") {
      const seconds =
        (value as { seconds?: unknown; _seconds?: unknown }).seconds ??
        (value as { _seconds?: unknown })._seconds;
      if (typeof seconds === "number") return seconds;
    }
    return value;
  },
  z
    .number({
      error: (issue) =>
        issue.input === undefined ? "is missing" : `must be epoch seconds, not ${quote(issue.input)}`,
    })
    .int("must be whole epoch seconds")
    .nonnegative("must not be negative")
    .max(MAX_EPOCH_SECONDS, "is in milliseconds, not epoch seconds"),
);

const statusSchema = z.preprocess(
  (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
  z.enum(POST_STATUSES, {
    error: (issue) =>
      issue.input === undefined
        ? "is missing"
        : `unknown status ${quote(issue.input)} (use ${POST_STATUSES.join(", ")})`,
  }),
);

const titleSchema = z.preprocess(
  trimmed,
  z
    .string()
    .min(1, "is empty, and the content has no words to make one of")
    .max(MAX_TITLE_LENGTH, tooLong(MAX_TITLE_LENGTH)),
);

/**
 * Decision 054: a post or page whose title is blank ("", spaces, an entity
 * for a space) takes the opening words of its content as its title
 * (titleFromContent, app/content/untitled.ts). Runs before the record's
 * fields are read, so every path validating with PostRecordSchema or
 * PageRecordSchema (import of any format, sync) gets it. A missing title
 * stays missing (a record that names no title field is refused as before);
 * a blank title with no words in the content stays blank and is refused,
 * "title: is empty, and the content has no words to make one of" (the
 * importer skips such a post first: cli/records.ts, parseItem).
 */
export function withTitleFromContent(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const record = value as { title?: unknown; content?: unknown };
  if (!isBlankTitle(record.title) || typeof record.content !== "string") return value;
  const title = titleFromContent(record.content);
  return title === "" ? value : { ...record, title };
}

/** A post's or page's HTML (sanitized later, on writing). */
const contentSchema = z.preprocess(cleaned, z.string().max(MAX_CONTENT_LENGTH, tooLong(MAX_CONTENT_LENGTH)));

/** A post's excerpt: plain text. */
const excerptSchema = z.preprocess(
  cleaned,
  z.string().max(MAX_EXCERPT_LENGTH, tooLong(MAX_EXCERPT_LENGTH)).default(""),
);

/** "", a root-relative path or an http(s) address: nothing a browser could run. */
const urlSchema = (max: number) =>
  z.preprocess(
    trimmed,
    z
      .string({
        error: (issue) =>
          issue.input === undefined ? "is missing" : `must be an address, not ${quote(issue.input)}`,
      })
      .max(max, tooLong(max))
      .refine(
        (url) =>
          url === "" || (url.startsWith("/") && !url.startsWith("//")) || /^https?:\/\/[^\s]+$/i.test(url),
        {
          error: (issue) => `${quote(issue.input)} is not an http(s) address or a path starting with /`,
        },
      )
      .refine((url) => !/[\s"'<>]/.test(url), "may not contain spaces, quotes or angle brackets"),
  );
export const imageUrlSchema = urlSchema(MAX_IMAGE_URL_LENGTH);
/** The teacher's recording of the post (decision 052): checked as an image address is; null is none. */
export const audioUrlSchema = z.preprocess(
  (value) => (value === null ? "" : value),
  urlSchema(MAX_AUDIO_URL_LENGTH),
);

/** Tag or category names: trimmed, NFC, each with a usable slug, duplicates (same slug) dropped. */
const termNamesSchema = z.preprocess(
  (value) => (Array.isArray(value) ? value.map(trimmed) : value),
  z
    .array(
      z
        .string()
        .min(1, "a name is empty")
        .max(MAX_TERM_NAME_LENGTH, `a name ${tooLong(MAX_TERM_NAME_LENGTH)}`)
        .refine((name) => slugify(name) !== "", {
          error: (issue) => `${quote(issue.input)} has no letters or digits`,
        }),
    )
    .max(MAX_TERMS, `has more than ${MAX_TERMS} names`)
    .transform((names) => {
      const seen = new Set<string>();
      return names.filter((name) => {
        const key = slugify(name);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }),
);

/** A translation group's key (Hugo's translationKey): any text, numbers taken as text; "" is none. */
const translationKeySchema = z.preprocess((value) => {
  const text = typeof value === "number" ? String(value) : trimmed(value);
  return text === "" || text === null ? undefined : text;
}, z.string().max(MAX_TRANSLATION_KEY_LENGTH, tooLong(MAX_TRANSLATION_KEY_LENGTH)).optional());

const personNameSchema = z.preprocess(
  (value) => (typeof value === "string" ? (trimmed(value) as string).replace(/\s+/g, " ") : value),
  z
    .string()
    .min(1, "is empty")
    .max(MAX_PERSON_NAME_LENGTH, tooLong(MAX_PERSON_NAME_LENGTH))
    .refine((name) => slugify(name) !== "", {
      error: (issue) => `${quote(issue.input)} has no letters or digits`,
    }),
);

/** A person's names by language: keys english/hindi/marathi or en/hi/mr; empty names dropped. */
const personNamesSchema = z.preprocess(
  (value) => {
    if (!value || typeof value !== "object" || Array.isArray(value)) return value;
    const names: Record<string, unknown> = {};
    for (const [key, name] of Object.entries(value)) {
      if (name === "" || name === null || name === undefined) continue;
      names[parseLanguage(key) ?? key] = name;
    }
    return names;
  },
  z.strictObject(
    {
      english: personNameSchema.optional(),
      hindi: personNameSchema.optional(),
      marathi: personNameSchema.optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `unknown language ${quoteKeys(issue.keys)} (use english, hindi or marathi, or en, hi, mr)`
          : undefined,
    },
  ),
);

const personAboutSchema = z.preprocess(
  (value) => (typeof value === "string" ? (trimmed(value) as string).replace(/\s+/g, " ") : value),
  z.string().max(MAX_PERSON_ABOUT_LENGTH, tooLong(MAX_PERSON_ABOUT_LENGTH)),
);

/**
 * A person's line about them (decision 066): a text (its language is the
 * one a bare name of theirs would fill: Devanagari the post's, else English)
 * or one per language, keys as for names; empty lines dropped.
 */
const personAboutByLanguageSchema = z.preprocess(
  (value) => {
    if (value === null || value === undefined || value === "") return {};
    if (typeof value === "string") return { "": value };
    if (typeof value !== "object" || Array.isArray(value)) return value;
    const about: Record<string, unknown> = {};
    for (const [key, line] of Object.entries(value)) {
      if (line === "" || line === null || line === undefined) continue;
      about[parseLanguage(key) ?? key] = line;
    }
    return about;
  },
  z.strictObject(
    {
      "": personAboutSchema.optional(),
      english: personAboutSchema.optional(),
      hindi: personAboutSchema.optional(),
      marathi: personAboutSchema.optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `unknown language ${quoteKeys(issue.keys)} (use english, hindi or marathi, or en, hi, mr)`
          : issue.code === "invalid_type"
            ? "must be a text or an object of texts by language"
            : undefined,
    },
  ),
);

/** `{ about }` holding the lines that are not empty, or nothing when none is. */
function aboutGiven(about: Partial<Record<Language | "", string>>): {
  about?: Partial<Record<Language | "", string>>;
} {
  const given = Object.fromEntries(
    Object.entries(about).filter(([, line]) => line !== "" && line !== undefined),
  );
  return Object.keys(given).length > 0 ? { about: given } : {};
}

/**
 * Who said or wrote a post: a name (in any script), or an object with the
 * name, names per language, the slug of their page (/people/{slug}) and a
 * line about them.
 */
export const PersonRecordSchema = z.preprocess(
  (value) => (typeof value === "string" ? { name: value } : value),
  z
    .object({
      name: personNameSchema.optional(),
      names: personNamesSchema.default({}),
      slug: z.preprocess(
        (value) => (typeof value === "string" ? (value.trim() === "" ? undefined : slugify(value)) : value),
        z
          .string()
          .min(1, "has no letters or digits")
          .max(MAX_SLUG_LENGTH, tooLong(MAX_SLUG_LENGTH))
          .optional(),
      ),
      about: personAboutByLanguageSchema,
    })
    .refine((person) => person.name !== undefined || Object.keys(person.names).length > 0, "has no name")
    .transform(
      ({
        name,
        names,
        slug,
        about,
      }): {
        name: string;
        names: Partial<Record<Language, string>>;
        slug?: string;
        /** Lines about the person by language; "" is a line given without one (decision 066). */
        about?: Partial<Record<Language | "", string>>;
      } => ({
        name: name ?? names.english ?? names.hindi ?? names.marathi ?? "",
        names,
        ...(slug === undefined ? {} : { slug }),
        ...aboutGiven(about),
      }),
    ),
);
export type PersonRecord = z.infer<typeof PersonRecordSchema>;

const sourceTextSchema = z.preprocess(
  (value) =>
    typeof value === "number"
      ? String(value)
      : typeof value === "string"
        ? (trimmed(value) as string).replace(/\s+/g, " ")
        : value,
  z.string().max(MAX_SOURCE_TEXT_LENGTH, tooLong(MAX_SOURCE_TEXT_LENGTH)).default(""),
);

/** Where a post comes from: a person, a work and a reference in it, each optional; a string is the person. */
const sourceSchema = z.preprocess(
  (value) => {
    if (value === null || value === "" || value === undefined) return undefined;
    if (typeof value === "string") return { person: value };
    if (value && typeof value === "object" && !Array.isArray(value)) {
      const { person, ...rest } = value as Record<string, unknown>;
      return { ...rest, person: person === "" || person === null ? undefined : person };
    }
    return value;
  },
  z
    .strictObject({
      person: PersonRecordSchema.optional(),
      work: sourceTextSchema,
      reference: sourceTextSchema,
    })
    .transform((source) => (source.person || source.work || source.reference ? source : undefined))
    .optional(),
);
export type SourceRecord = NonNullable<z.infer<typeof sourceSchema>>;

export const PostRecordSchema = z.preprocess(
  withTitleFromContent,
  z.object({
    idNum: idNumSchema,
    language: languageSchema,
    status: statusSchema,
    postTime: postTimeSchema,
    title: titleSchema,
    slug: slugSchema,
    featureImageUrl: imageUrlSchema.default(""),
    /** Optional in the output too: records built in code (generate, tests) may leave it out; "" and absent are none. */
    audio: audioUrlSchema.optional(),
    content: contentSchema,
    excerpt: excerptSchema,
    tags: termNamesSchema.default([]),
    categories: termNamesSchema.default([]),
    translationKey: translationKeySchema,
    source: sourceSchema,
  }),
);
export type PostRecord = z.infer<typeof PostRecordSchema>;

export const PageRecordSchema = z.preprocess(
  withTitleFromContent,
  z.object({
    slug: slugSchema,
    title: titleSchema,
    content: contentSchema,
  }),
);
export type PageRecord = z.infer<typeof PageRecordSchema>;

export const ContentFileSchema = z.object({
  posts: z.array(PostRecordSchema),
  pages: z.array(PageRecordSchema).default([]),
});
export type ContentFile = z.infer<typeof ContentFileSchema>;

/** Unknown keys for a message: at most three, each quoted and cut. */
function quoteKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, 3).map((key) => quote(key));
  return keys.length > 3 ? `${shown.join(", ")} and ${keys.length - 3} more` : shown.join(", ");
}

/**
 * "field: message" for each problem, as the importer prints them. Input is
 * quoted cut to MAX_QUOTED_LENGTH characters (a record's keys and values may
 * be long); every message is one line.
 */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    // An empty key is a value given bare (a person's line without its language): named by its parent.
    const field = cutText(
      issue.path
        .map(String)
        .filter((key) => key !== "")
        .join("."),
    );
    const generic = issue.code === "invalid_type" && issue.message.startsWith("Invalid input");
    const message =
      issue.code === "unrecognized_keys" && issue.message.startsWith("Unrecognized key")
        ? `unknown key${issue.keys.length === 1 ? "" : "s"} ${quoteKeys(issue.keys)}`
        : !generic
          ? issue.message
          : issue.input === undefined || /received undefined/.test(issue.message)
            ? "is missing"
            : `must be ${issue.expected}, not ${quote(issue.input)}`;
    const line = cutText(message.replace(/[\r\n]+/g, " "), 300);
    return field ? `${field}: ${line}` : line;
  });
}
