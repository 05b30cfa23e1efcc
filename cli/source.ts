import type { Language } from "#app/content/languages.ts";
import { UsageError } from "#cli/errors.ts";

export const FORMATS = ["wxr", "json", "ndjson"] as const;
export type Format = (typeof FORMATS)[number];

/**
 * One thing a reader found in the file, not yet validated. `label` names it in
 * messages ("line 17", "posts[3] (line 40)", "item 12 (wp:post_id 345)").
 */
export type SourceItem =
  | {
      kind: "post" | "page";
      label: string;
      value: unknown;
      /** Why the post is not published when its status alone does not say (a password), for the report. */
      unpublished?: string;
    }
  | { kind: "skip"; label: string; reason: string }
  | { kind: "invalid"; label: string; message: string };

/** Bytes read so far, for the progress line. */
export interface ByteCounter {
  bytes: number;
}

/**
 * A file the importer reads twice: once to validate, once to write. Readers
 * stream: memory stays bounded whatever the file's size.
 */
export interface Source {
  readonly format: Format;
  items(counter: ByteCounter): AsyncIterable<SourceItem>;
  /** WXR: attachment id → URL, collected by the first read. */
  readonly attachments?: Map<string, string>;
  /** Problems only visible once the whole file was read (WXR featured images), after the first pass. */
  afterFirstPass?(): { errors: string[]; warnings: string[] };
}

/** Where a WXR post's source part comes from: its author (dc:creator, shown by display name), or a post meta. */
export type SourceFieldRef = { from: "author" } | { from: "meta"; key: string };

/** --source-field: which WXR field gives each part of a post's `source`. */
export interface SourceFields {
  person?: SourceFieldRef;
  work?: SourceFieldRef;
  reference?: SourceFieldRef;
  /** The person's line about them (decision 066), in the post's language or English as a bare name is. */
  about?: SourceFieldRef;
}

export const SOURCE_PARTS = ["person", "work", "reference", "about"] as const;

/**
 * A post's `source` record from the parts read (each a non-empty text): the
 * line `about` joins the person (`{ name, about }`), and goes with no person.
 */
export function sourceRecord(parts: Record<string, string>): Record<string, unknown> | undefined {
  const { about, ...source } = parts;
  if (Object.keys(source).length === 0) return undefined;
  return about && source.person ? { ...source, person: { name: source.person, about } } : source;
}

function fieldRef(value: string, spec: string): SourceFieldRef {
  const field = value.trim();
  if (field === "author") return { from: "author" };
  const key = field.startsWith("meta:") ? field.slice(5).trim() : field;
  if (key === "") throw new UsageError(`--source-field "${spec}": a part names no field`);
  return { from: "meta", key };
}

/**
 * `--source-field SPEC`: `author` (the post's author), `KEY` or `meta:KEY` (a
 * post meta, e.g. a custom field quote_author): the person; or parts, comma
 * separated: `person=author,work=quote_source,reference=quote_ref`.
 */
export function parseSourceFields(spec: string): SourceFields {
  if (spec.trim() === "") throw new UsageError("--source-field needs a value, e.g. author or quote_author");
  if (!spec.includes("=")) return { person: fieldRef(spec, spec) };
  const fields: SourceFields = {};
  for (const part of spec.split(",")) {
    const equals = part.indexOf("=");
    const name = (equals < 0 ? "" : part.slice(0, equals)).trim();
    if (!(SOURCE_PARTS as readonly string[]).includes(name)) {
      throw new UsageError(
        `--source-field "${spec}": "${part.trim()}" is not person=FIELD, work=FIELD, reference=FIELD or about=FIELD`,
      );
    }
    const partName = name as (typeof SOURCE_PARTS)[number];
    if (fields[partName]) throw new UsageError(`--source-field "${spec}": ${partName} is given twice`);
    fields[partName] = fieldRef(part.slice(equals + 1), spec);
  }
  return fields;
}

export interface SourceOptions {
  /** --language: the language of records that do not state their own. */
  language?: Language;
  /** --source-field (WXR only): where each post's source (person, work, reference) is read from. */
  sourceFields?: SourceFields;
}
