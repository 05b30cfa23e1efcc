import type { Language } from "#app/content/languages.ts";
import {
  cutText,
  describeIssues,
  type PageRecord,
  PageRecordSchema,
  type PostRecord,
  PostRecordSchema,
  quote,
} from "#app/content/schemas.ts";
import { isBlankTitle, titleFromContent } from "#app/content/untitled.ts";
import { UserError } from "#cli/errors.ts";
import { jsonSource, ndjsonSource } from "#cli/import-json.ts";
import type { Format, Source, SourceItem, SourceOptions } from "#cli/source.ts";
import { wxrSource } from "#cli/wxr/index.ts";

/**
 * The reader for a format. `options` are --language and --source-field.
 * `attachments` (WXR only) are those a first pass collected; given them, the
 * source resolves featured images on its first read.
 */
export function openSource(
  file: string,
  format: Format,
  sourceOptions: SourceOptions = {},
  attachments?: Map<string, string>,
): Source {
  if (format === "wxr") return wxrSource(file, sourceOptions, undefined, attachments);
  if (sourceOptions.sourceFields) {
    throw new UserError(
      `--source-field reads WordPress exports only; ${format === "ndjson" ? "NDJSON" : "JSON"} records carry their own "source"`,
      2,
    );
  }
  if (format === "ndjson") return ndjsonSource(file);
  return jsonSource(file);
}

/** `line 17 [idNum 12, slug "a-slug"]`: a label with whatever the raw record says about itself (cut). */
export function describeRecord(label: string, value: unknown): string {
  if (!value || typeof value !== "object") return label;
  const { idNum, slug } = value as { idNum?: unknown; slug?: unknown };
  const id = typeof idNum === "number" || typeof idNum === "string" ? cutText(String(idNum), 40) : null;
  const facts = [
    id !== null && !label.includes(`wp:post_id ${id})`) ? `idNum ${id}` : null,
    typeof slug === "string" && slug !== "" ? `slug ${quote(slug)}` : null,
  ].filter(Boolean);
  return facts.length > 0 ? `${label} [${facts.join(", ")}]` : label;
}

/**
 * A record through the schemas. `madeTitle`: its title was blank and was
 * made from its content's opening words (decision 054), for the report.
 */
export type ParsedItem =
  | { post: PostRecord; madeTitle: boolean }
  | { page: PageRecord; madeTitle: boolean }
  | { skip: string }
  | { problems: string[] }
  | null;

/** Why a record is skipped: blank title and no words in its content to make one of (decision 054). */
export const UNTITLED_AND_EMPTY = "untitled, and no words in its content to make a title of";

/** The record's title is blank and its content has no words a title could be made of. */
function untitledAndEmpty(value: unknown): boolean {
  if (!value || typeof value !== "object") return false;
  const { title, content } = value as { title?: unknown; content?: unknown };
  return isBlankTitle(title) && typeof content === "string" && titleFromContent(content) === "";
}

/**
 * A source item through the schemas, with --language filling in a post's
 * missing language; null for the reader's skips, `{ skip }` for a record
 * with neither title nor words (any format: WXR, JSON, NDJSON; sync may call
 * this too).
 */
export function parseItem(item: SourceItem, language: Language | undefined): ParsedItem {
  if (item.kind === "skip") return null;
  if (item.kind === "invalid") return { problems: [`${item.label}: ${item.message}`] };
  if (untitledAndEmpty(item.value)) return { skip: UNTITLED_AND_EMPTY };
  const madeTitle = isBlankTitle((item.value as { title?: unknown } | null)?.title);
  if (item.kind === "page") {
    const result = PageRecordSchema.safeParse(item.value, { reportInput: true });
    if (result.success) return { page: result.data, madeTitle };
    const where = describeRecord(item.label, item.value);
    return { problems: describeIssues(result.error).map((issue) => `${where}: ${issue}`) };
  }
  let value = item.value as Record<string, unknown>;
  if (language && (value.language === undefined || value.language === null || value.language === "")) {
    value = { ...value, language };
  }
  const result = PostRecordSchema.safeParse(value, { reportInput: true });
  if (result.success) return { post: result.data, madeTitle };
  const where = describeRecord(item.label, value);
  return { problems: describeIssues(result.error).map((issue) => `${where}: ${issue}`) };
}
