import type { Language } from "#app/content/languages.ts";

export const FORMATS = ["wxr", "json", "ndjson"] as const;
export type Format = (typeof FORMATS)[number];

/**
 * One thing a reader found in the file, not yet validated. `label` names it in
 * messages ("line 17", "posts[3] (line 40)", "item 12 (wp:post_id 345)").
 */
export type SourceItem =
  | { kind: "post" | "page"; label: string; value: unknown }
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

export interface SourceOptions {
  /** --language: the language of records that do not state their own. */
  language?: Language;
}
