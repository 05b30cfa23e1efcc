import { closeSync, openSync, readSync, statSync } from "node:fs";
import path from "node:path";
import type { Language } from "#app/content/languages.ts";
import { quote } from "#app/content/schemas.ts";
import { POSTS_EXPECTED_AT_ONCE, postKey, type WriteSummary } from "#app/data/content-writer.ts";
import { openContentWrites } from "#app/data/open-writes.server.ts";
import { type ContentWrites, type PostKeysWanted, WritesRefusedError } from "#app/data/writes.ts";
import { RejectedError, UserError } from "#cli/errors.ts";
import { type PrepareJob, prepareInThread, prepareInWorker } from "#cli/prepare.ts";
import { type Progress, silentProgress } from "#cli/progress.ts";
import { purgeHook } from "#cli/purge.ts";
import { openSource, parseItem } from "#cli/records.ts";
import {
  FORMATS,
  type Format,
  type Source,
  type SourceFields,
  type SourceItem,
  type SourceOptions,
} from "#cli/source.ts";

export interface ImportOptions {
  file: string;
  databaseUrl: string;
  format?: Format;
  language?: Language;
  /** --source-field (WXR only). */
  sourceFields?: SourceFields;
  dryRun?: boolean;
  progress?: Progress;
  /** Prepare records on a worker thread: by default for files of 1 MB and more. */
  worker?: boolean;
  /** The environment the purge hook reads (PURGE_URL…); default process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface ImportReport extends WriteSummary {
  format: Format;
  dryRun: boolean;
  skipped: number;
  /** Reason → count, e.g. "attachment (used for featured images)" → 12. */
  skippedReasons: Record<string, number>;
  /** Posts imported but not published, by reason (their status, or e.g. "password-protected"). */
  unpublished: Record<string, number>;
  /** Records whose blank title was made from their opening words (decision 054): how many, and the first MAX_TITLES_LISTED. */
  titlesMade: number;
  titlesMadeList: { label: string; title: string }[];
  warnings: string[];
  /** The database written (or checked), for messages: ContentWrites.description. */
  database: string;
}

/** From this size on, records are prepared on a second thread (starting it costs ~0.2 s). */
const WORKER_MIN_BYTES = 1024 * 1024;

/** Made titles listed in the report; past this, only counted. */
export const MAX_TITLES_LISTED = 100;

/** Problems listed in full; past this, only counted. */
const MAX_PROBLEMS = 20;
/**
 * Up to this many idNums and group places, the check of a file's keys against
 * the database looks up those keys only; past it, every post's keys are read
 * (a 12-post sync beside 100,000 posts: 0.45 s of CPU saved a run).
 */
const MAX_KEYS_LOOKED_UP = 5_000;

/** The format the option names, else the file's extension, else its first bytes. */
export function detectFormat(file: string, option?: string): Format {
  if (option !== undefined) {
    if (!(FORMATS as readonly string[]).includes(option)) {
      throw new UserError(`unknown format ${quote(option)} (use wxr, json or ndjson)`, 2);
    }
    return option as Format;
  }
  const extension = path.extname(file).toLowerCase();
  if (extension === ".xml" || extension === ".wxr") return "wxr";
  if (extension === ".ndjson" || extension === ".jsonl") return "ndjson";
  if (extension === ".json") return "json";
  const head = readHead(file)
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (head.startsWith("<")) return "wxr";
  if (head.startsWith("[")) return "json";
  if (head.startsWith("{")) {
    const firstLine = head.split("\n", 1)[0] ?? "";
    try {
      JSON.parse(firstLine);
      return "ndjson";
    } catch {
      return "json";
    }
  }
  throw new UserError(`cannot tell the format of ${file}; pass --format wxr, json or ndjson`, 2);
}

function readHead(file: string): string {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, length).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

interface Validated {
  /** language + slug of every post in the file (postKey) → its label. */
  incoming: Map<string, string>;
  skipped: number;
  skippedReasons: Record<string, number>;
  unpublished: Record<string, number>;
  titlesMade: number;
  titlesMadeList: { label: string; title: string }[];
  warnings: string[];
}

/**
 * First pass: reads the whole file and checks every record, the file's own
 * consistency (one slug and one idNum per post and language) and the idNums
 * it would take from posts already in the database. Writes nothing.
 */
async function validate(
  source: Source,
  options: ImportOptions,
  totalBytes: number,
  progress: Progress,
  writes: ContentWrites,
): Promise<Validated> {
  const problems: string[] = [];
  let total = 0;
  const report = (message: string) => {
    total++;
    if (problems.length < MAX_PROBLEMS) problems.push(message);
  };
  const bySlug = new Map<string, string>();
  const byIdNum = new Map<string, { label: string; slug: string }>();
  /** translationKey + newline + language → the record holding that place in the group. */
  const byGroup = new Map<string, { label: string; slug: string }>();
  const pages = new Map<string, string>();
  const skippedReasons: Record<string, number> = {};
  let skipped = 0;
  const skip = (reason: string) => {
    skipped++;
    skippedReasons[reason] = (skippedReasons[reason] ?? 0) + 1;
  };
  const unpublished: Record<string, number> = {};
  let titlesMade = 0;
  const titlesMadeList: { label: string; title: string }[] = [];
  let records = 0;
  const counter = { bytes: 0 };

  progress.start("validating", totalBytes);
  const items = source.items(counter)[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<SourceItem>;
    try {
      next = await items.next();
    } catch (error) {
      // The file cannot be read as its format at all (bad XML, broken JSON).
      if (!(error instanceof UserError)) throw error;
      throw new RejectedError(
        `${path.basename(options.file)} was rejected: ${error.message}; the database was not changed`,
        [],
        1,
      );
    }
    if (next.done) break;
    const item = next.value;
    records++;
    progress.update(counter.bytes, records);
    if (item.kind === "skip") {
      skip(item.reason);
      continue;
    }
    const parsed = parseItem(item, options.language);
    if (!parsed) continue;
    if ("skip" in parsed) {
      skip(parsed.skip);
      continue;
    }
    if ("problems" in parsed) {
      for (const problem of parsed.problems) report(problem);
      continue;
    }
    if (parsed.madeTitle) {
      titlesMade++;
      if (titlesMadeList.length < MAX_TITLES_LISTED) {
        const record = "post" in parsed ? parsed.post : parsed.page;
        const where = "post" in parsed ? ` [${parsed.post.language} ${quote(parsed.post.slug)}]` : " [page]";
        titlesMadeList.push({ label: `${item.label}${where}`, title: record.title });
      }
    }
    if ("post" in parsed && parsed.post.status !== "publish") {
      const reason = (item.kind === "post" && item.unpublished) || parsed.post.status;
      unpublished[reason] = (unpublished[reason] ?? 0) + 1;
    }
    if ("page" in parsed) {
      const other = pages.get(parsed.page.slug);
      if (other) report(`${item.label}: slug: page ${quote(parsed.page.slug)} is also ${other}`);
      else pages.set(parsed.page.slug, item.label);
      continue;
    }
    const { post } = parsed;
    const key = postKey(post.language, post.slug);
    // Made only for a problem's message (most records have none).
    const label = () => `${item.label} [${post.language} ${quote(post.slug)}, idNum ${post.idNum}]`;
    const sameSlug = bySlug.get(key);
    if (sameSlug) report(`${label()}: slug: ${post.language} ${quote(post.slug)} is also ${sameSlug}`);
    else bySlug.set(key, item.label);
    const idKey = `${post.language}\n${post.idNum}`;
    const sameId = byIdNum.get(idKey);
    if (sameId) {
      report(
        `${label()}: idNum: ${post.language} idNum ${post.idNum} is also ${sameId.label} (${quote(sameId.slug)})`,
      );
    } else byIdNum.set(idKey, { label: item.label, slug: post.slug });
    if (post.translationKey !== undefined) {
      const groupKey = `${post.translationKey}\n${post.language}`;
      const sameGroup = byGroup.get(groupKey);
      if (sameGroup) {
        report(
          `${label()}: translationKey: group ${quote(post.translationKey)} has two ${post.language} posts: this one and ${sameGroup.label} (${quote(sameGroup.slug)})`,
        );
      } else byGroup.set(groupKey, { label: item.label, slug: post.slug });
    }
  }
  progress.done(`validated ${records.toLocaleString("en")} records`);

  const later = source.afterFirstPass?.() ?? { errors: [], warnings: [] };
  for (const error of later.errors) report(error);

  // An idNum the file gives a post may be held in the database by another
  // post; that is fine only if the file also rewrites that other post.
  if (total === 0) {
    // A file of a few thousand posts asks for its own keys (an index seek each); a larger one reads them all.
    const only: PostKeysWanted | undefined =
      byIdNum.size + byGroup.size <= MAX_KEYS_LOOKED_UP
        ? {
            idNums: [...byIdNum.keys()].map((key) => {
              const [language, idNum] = key.split("\n");
              return { language: language as Language, idNum: Number(idNum) };
            }),
            groups: [...byGroup.keys()].map((key) => {
              const at = key.lastIndexOf("\n");
              return { translationKey: key.slice(0, at), language: key.slice(at + 1) as Language };
            }),
          }
        : undefined;
    for await (const row of writes.postKeys(only)) {
      const wanted = byIdNum.get(`${row.language}\n${row.idNum}`);
      if (wanted && wanted.slug !== row.slug && !bySlug.has(postKey(row.language, row.slug))) {
        report(
          `${wanted.label} [${row.language} ${quote(wanted.slug)}]: idNum: ${row.language} idNum ${row.idNum} is held in the database by post ${quote(row.slug)}, which this file does not include`,
        );
      }
      // Likewise a post's place in a translation group.
      const joining =
        row.translationKey === null ? undefined : byGroup.get(`${row.translationKey}\n${row.language}`);
      if (joining && joining.slug !== row.slug && !bySlug.has(postKey(row.language, row.slug))) {
        report(
          `${joining.label} [${row.language} ${quote(joining.slug)}]: translationKey: group ${quote(row.translationKey)} already has the ${row.language} post ${quote(row.slug)} in the database, which this file does not include`,
        );
      }
    }
  }

  if (total > 0) {
    const more = total > problems.length ? ` (the first ${problems.length} are listed)` : "";
    throw new RejectedError(
      `${path.basename(options.file)} was rejected: ${total} problem${total === 1 ? "" : "s"}${more}; the database was not changed`,
      problems,
      total,
    );
  }
  return {
    incoming: bySlug,
    skipped,
    skippedReasons,
    unpublished,
    titlesMade,
    titlesMadeList,
    warnings: later.warnings,
  };
}

/**
 * The database's writes (ContentWrites: SQLite or PostgreSQL, by URL). One
 * this user cannot write is refused in one line, before any work; nothing is
 * created or changed until the write transaction.
 */
export async function openWrites(
  databaseUrl: string,
  dryRun: boolean,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ContentWrites> {
  // After each commit the changed cache tags go to PURGE_URL, when set (cli/purge.ts).
  const afterCommit = dryRun ? undefined : purgeHook(env);
  try {
    return await openContentWrites(databaseUrl, { dryRun, afterCommit });
  } catch (error) {
    if (error instanceof WritesRefusedError) throw new UserError(error.message);
    throw error;
  }
}

/** The items in runs of up to `size`, in order. */
async function* runsOf<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let run: T[] = [];
  for await (const item of items) {
    run.push(item);
    if (run.length >= size) {
      yield run;
      run = [];
    }
  }
  if (run.length > 0) yield run;
}

/**
 * `sukti import`: validates the whole file, then writes it in one transaction
 * (readers of a running server see the old content or the new, never half).
 * Any problem leaves the database as it was.
 */
export async function importFile(options: ImportOptions): Promise<ImportReport> {
  const progress = options.progress ?? silentProgress;
  let size: number;
  try {
    const stat = statSync(options.file);
    if (!stat.isFile()) throw new Error("not a file");
    size = stat.size;
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new UserError(`cannot read ${options.file}: ${reason}`);
  }
  const format = detectFormat(options.file, options.format);
  const sourceOptions: SourceOptions = { language: options.language, sourceFields: options.sourceFields };
  const source = openSource(options.file, format, sourceOptions);
  const dryRun = options.dryRun ?? false;
  const writes = await openWrites(options.databaseUrl, dryRun, options.env);
  try {
    const validated = await validate(source, options, size, progress, writes);
    const counter = { bytes: 0 };
    let records = 0;
    const job: PrepareJob = {
      // The second read's openSource needs the same options (--source-field too).
      ...sourceOptions,
      file: options.file,
      format,
      language: options.language,
      attachments: source.attachments,
    };
    progress.start(dryRun ? "checking" : "writing", size);
    // One transaction (a dry run writes nothing): any error rolls it back, leaving the database as it was.
    const summary = await writes.transaction({ incoming: validated.incoming, dryRun }, async (writer) => {
      const prepared =
        (options.worker ?? size >= WORKER_MIN_BYTES)
          ? prepareInWorker(job, counter)
          : prepareInThread(job, counter);
      for await (const run of runsOf(prepared, POSTS_EXPECTED_AT_ONCE)) {
        // The run's posts are read in one go where reads are round trips (PostgreSQL).
        await writer.expectPosts(run.flatMap((item) => (item.kind === "post" ? [item.record] : [])));
        for (const item of run) {
          records++;
          progress.update(counter.bytes, records);
          // Validated in the first pass: a problem now means the file changed under us.
          if (item.kind === "problem")
            throw new UserError(`${options.file} changed during the import: ${item.message}`);
          if (item.kind === "post") await writer.writePost(item.record, item.html, item.text);
          else await writer.writePage(item.record, item.html);
        }
      }
      await writer.finish();
      return writer.summary;
    });
    const { created, updated, unchanged } = summary;
    progress.done(
      `${dryRun ? "checked" : "wrote"} ${records.toLocaleString("en")} records: ${created} created, ${updated} updated, ${unchanged} unchanged`,
    );
    return {
      ...summary,
      format,
      dryRun,
      skipped: validated.skipped,
      skippedReasons: validated.skippedReasons,
      unpublished: validated.unpublished,
      titlesMade: validated.titlesMade,
      titlesMadeList: validated.titlesMadeList,
      warnings: validated.warnings,
      database: writes.description,
    };
  } finally {
    await writes.close();
  }
}
