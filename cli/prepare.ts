import { Worker } from "node:worker_threads";
import type { Language } from "#app/content/languages.ts";
import type { PageRecord } from "#app/content/schemas.ts";
import type { PostToWrite } from "#app/data/content-writer.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import { type SearchText, searchText } from "#app/search/document.ts";
import { UserError } from "#cli/errors.ts";
import { openSource, parseItem } from "#cli/records.ts";
import type { ByteCounter, Format, SourceItem } from "#cli/source.ts";

/**
 * A record ready to write: validated, its HTML sanitized, a published post's
 * search text folded. A post's raw content is left out (the writer stores
 * `html`): it would only be copied from the reading thread again.
 */
export type Prepared =
  | { kind: "post"; record: PostToWrite; html: string; text?: SearchText }
  | { kind: "page"; record: PageRecord; html: string }
  | { kind: "problem"; message: string };

export interface PrepareJob {
  file: string;
  format: Format;
  language?: Language;
  attachments?: Map<string, string>;
}

export type WorkerMessage =
  | { batch: Prepared[]; bytes: number }
  | { done: true; bytes: number }
  | { error: string; user: boolean };

/** Records per message, and messages a worker may send ahead of the writer: bounds memory. */
export const BATCH_SIZE = 250;
export const BATCHES_AHEAD = 4;

export function prepare(item: SourceItem, language: Language | undefined): Prepared | null {
  const parsed = parseItem(item, language);
  if (!parsed || "skip" in parsed) return null;
  if ("problems" in parsed) return { kind: "problem", message: parsed.problems.join("; ") };
  if ("post" in parsed) {
    const { content, ...record } = parsed.post;
    const html = sanitizePostHtml(content);
    // Folded here (on the worker thread, for a large file) rather than by the writer.
    return record.status === "publish"
      ? { kind: "post", record, html, text: searchText(record.title, html, record.excerpt) }
      : { kind: "post", record, html };
  }
  return { kind: "page", record: parsed.page, html: sanitizePostHtml(parsed.page.content) };
}

/** Reads, validates and sanitizes each record on this thread. */
export async function* prepareInThread(job: PrepareJob, counter: ByteCounter): AsyncGenerator<Prepared> {
  const source = openSource(job.file, job.format, job, job.attachments);
  for await (const item of source.items(counter)) {
    const prepared = prepare(item, job.language);
    if (prepared) yield prepared;
  }
}

/**
 * The same work on a worker thread, so reading, validating and sanitizing
 * (a third of an import's CPU time) run on another core while this thread
 * writes to the database. The worker stays at most BATCHES_AHEAD batches ahead.
 */
export async function* prepareInWorker(job: PrepareJob, counter: ByteCounter): AsyncGenerator<Prepared> {
  const worker = new Worker(new URL("./prepare-worker.mjs", import.meta.url), { workerData: job });
  const inbox: WorkerMessage[] = [];
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  worker.on("message", (message: WorkerMessage) => {
    inbox.push(message);
    wake?.();
  });
  worker.on("error", (error) => {
    failure = error;
    wake?.();
  });
  worker.on("exit", (code) => {
    failure ??= code === 0 ? null : new Error(`the import worker stopped (exit code ${code})`);
    wake?.();
  });
  try {
    for (;;) {
      let message = inbox.shift();
      while (message === undefined) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        message = inbox.shift();
      }
      if ("error" in message) throw message.user ? new UserError(message.error) : new Error(message.error);
      counter.bytes = message.bytes;
      if ("done" in message) return;
      yield* message.batch;
      worker.postMessage({ credit: 1 });
    }
  } finally {
    await worker.terminate();
  }
}
