import { z } from "zod";
import { LANGUAGES, type Language } from "#app/content/languages.ts";
import { POST_STATUSES } from "#app/content/model.ts";
import { RESERVED_SLUGS, slugify } from "#app/content/slugs.ts";

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

const trimmed = (value: unknown) => (typeof value === "string" ? value.normalize("NFC").trim() : value);

const slugSchema = z.preprocess(
  trimmed,
  z
    .string()
    .min(1, "is empty")
    .max(200, "is longer than 200 characters")
    .refine((slug) => !/[/?#\\\s%]/u.test(slug), "may not contain /, \\, ?, #, % or spaces")
    .refine((slug) => slug !== "." && slug !== "..", "may not be . or ..")
    .refine((slug) => !RESERVED_SLUGS.has(slug.toLowerCase()), {
      error: (issue) => `"${String(issue.input)}" is reserved by a route`,
    }),
);

const languageSchema = z.preprocess(
  (value) => parseLanguage(value) ?? value,
  z.enum(LANGUAGES, {
    error: (issue) =>
      issue.input === undefined
        ? "is missing"
        : `unknown language ${JSON.stringify(issue.input)} (use english, hindi or marathi, or en, hi, mr)`,
  }),
);

const idNumSchema = z.preprocess(
  (value) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  z
    .number({
      error: (issue) =>
        issue.input === undefined ? "is missing" : `must be a number, not ${JSON.stringify(issue.input)}`,
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
        issue.input === undefined
          ? "is missing"
          : `must be epoch seconds, not ${JSON.stringify(issue.input)}`,
    })
    .int("must be whole epoch seconds")
    .nonnegative("must not be negative")
    .max(99_999_999_999, "is in milliseconds, not epoch seconds"),
);

const statusSchema = z.preprocess(
  (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
  z.enum(POST_STATUSES, {
    error: (issue) =>
      issue.input === undefined
        ? "is missing"
        : `unknown status ${JSON.stringify(issue.input)} (use ${POST_STATUSES.join(", ")})`,
  }),
);

const titleSchema = z.preprocess(trimmed, z.string().min(1, "is empty"));

/** "", a root-relative path or an http(s) address: nothing a browser could run. */
const imageUrlSchema = z.preprocess(
  trimmed,
  z
    .string()
    .refine(
      (url) =>
        url === "" || (url.startsWith("/") && !url.startsWith("//")) || /^https?:\/\/[^\s]+$/i.test(url),
      {
        error: (issue) =>
          `${JSON.stringify(issue.input)} is not an http(s) address or a path starting with /`,
      },
    )
    .refine((url) => !/[\s"'<>]/.test(url), "may not contain spaces, quotes or angle brackets"),
);

/** Tag or category names: trimmed, NFC, each with a usable slug, duplicates (same slug) dropped. */
const termNamesSchema = z.preprocess(
  (value) => (Array.isArray(value) ? value.map(trimmed) : value),
  z
    .array(
      z
        .string()
        .min(1, "a name is empty")
        .refine((name) => slugify(name) !== "", {
          error: (issue) => `${JSON.stringify(issue.input)} has no letters or digits`,
        }),
    )
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
}, z.string().max(200, "is longer than 200 characters").optional());

const personNameSchema = z.preprocess(
  (value) => (typeof value === "string" ? value.normalize("NFC").trim().replace(/\s+/g, " ") : value),
  z
    .string()
    .min(1, "is empty")
    .max(200, "is longer than 200 characters")
    .refine((name) => slugify(name) !== "", {
      error: (issue) => `${JSON.stringify(issue.input)} has no letters or digits`,
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
          ? `unknown language ${issue.keys.map((key) => JSON.stringify(key)).join(", ")} (use english, hindi or marathi, or en, hi, mr)`
          : undefined,
    },
  ),
);

/**
 * Who said or wrote a post: a name (in any script), or an object with the
 * name, names per language and the slug of their page (/people/{slug}).
 */
export const PersonRecordSchema = z.preprocess(
  (value) => (typeof value === "string" ? { name: value } : value),
  z
    .object({
      name: personNameSchema.optional(),
      names: personNamesSchema.default({}),
      slug: z.preprocess(
        (value) => (typeof value === "string" ? (value.trim() === "" ? undefined : slugify(value)) : value),
        z.string().min(1, "has no letters or digits").max(200, "is longer than 200 characters").optional(),
      ),
    })
    .refine((person) => person.name !== undefined || Object.keys(person.names).length > 0, "has no name")
    .transform(
      ({ name, names, slug }): { name: string; names: Partial<Record<Language, string>>; slug?: string } => ({
        name: name ?? names.english ?? names.hindi ?? names.marathi ?? "",
        names,
        ...(slug === undefined ? {} : { slug }),
      }),
    ),
);
export type PersonRecord = z.infer<typeof PersonRecordSchema>;

const sourceTextSchema = z.preprocess(
  (value) =>
    typeof value === "number"
      ? String(value)
      : typeof value === "string"
        ? value.normalize("NFC").trim().replace(/\s+/g, " ")
        : value,
  z.string().max(500, "is longer than 500 characters").default(""),
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

export const PostRecordSchema = z.object({
  idNum: idNumSchema,
  language: languageSchema,
  status: statusSchema,
  postTime: postTimeSchema,
  title: titleSchema,
  slug: slugSchema,
  featureImageUrl: imageUrlSchema.default(""),
  content: z.string(),
  excerpt: z.string().default(""),
  tags: termNamesSchema.default([]),
  categories: termNamesSchema.default([]),
  translationKey: translationKeySchema,
  source: sourceSchema,
});
export type PostRecord = z.infer<typeof PostRecordSchema>;

export const PageRecordSchema = z.object({
  slug: slugSchema,
  title: titleSchema,
  content: z.string(),
});
export type PageRecord = z.infer<typeof PageRecordSchema>;

export const ContentFileSchema = z.object({
  posts: z.array(PostRecordSchema),
  pages: z.array(PageRecordSchema).default([]),
});
export type ContentFile = z.infer<typeof ContentFileSchema>;

/** "field: message" for each problem, as the importer prints them. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join(".");
    const generic = issue.code === "invalid_type" && issue.message.startsWith("Invalid input");
    const message = !generic
      ? issue.message
      : issue.input === undefined || /received undefined/.test(issue.message)
        ? "is missing"
        : `must be ${issue.expected}, not ${describeValue(issue.input)}`;
    return field ? `${field}: ${message}` : message;
  });
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return JSON.stringify(value);
}
