import { parseArgs } from "node:util";
import { LANGUAGES } from "#app/content/languages.ts";
import { cutText, parseLanguage } from "#app/content/schemas.ts";
import { IdNumConflictError, TranslationConflictError } from "#app/data/content-writer.ts";
import { DEFAULT_DATABASE_URL } from "#app/data/open-store.server.ts";
import { RejectedError, UsageError, UserError } from "#cli/errors.ts";
import { writeCorpus } from "#cli/generate.ts";
import { type ImportReport, importFile, openWrites } from "#cli/import.ts";
import { terminalProgress } from "#cli/progress.ts";
import { seed } from "#cli/seed.ts";
import { FORMATS, type Format, parseSourceFields } from "#cli/source.ts";

const IMPORT_HELP = `  sukti import FILE [--format wxr|json|ndjson] [--language english|hindi|marathi]
                   [--source-field SPEC] [--dry-run]
      Import a WordPress export (WXR 1.x), a JSON file or an NDJSON file.
      Posts are matched by language and slug: a re-import changes nothing, a
      changed record is updated in place. The whole file is checked first; any
      invalid record rejects it and the database is left as it was.
      --format     wxr, json or ndjson (default: from the file name, else its first bytes)
      --language   the language of posts that do not state their own
      --source-field SPEC
                   WordPress only: where each post's source is read from.
                   author: the person is the post's author (display name);
                   KEY or meta:KEY: the person is that post meta (custom field);
                   person=F,work=F,reference=F: each part from a field F as above,
                   e.g. person=quote_author,work=quote_source. Empty: no source
      --dry-run    check the file and report what would change, writing nothing`;

const SEED_HELP = `  sukti seed [--force]
      Load the demo content. Refuses a database holding other content unless
      --force (which adds the demo posts to it and deletes nothing).`;

const UNPUBLISH_HELP = `  sukti unpublish LANGUAGE SLUG
      Take a published post off the site (it becomes a draft: gone from every
      page, list, feed, sitemap and search; a later import can publish it).`;

const DELETE_HELP = `  sukti delete LANGUAGE SLUG
      Delete a post of any status, with its links to tags and categories.`;

const GENERATE_HELP = `  sukti generate --count N [--out FILE] [--format json|ndjson] [--seed S]
      Write N synthetic posts (English, Hindi, Marathi) for benchmarks, to FILE
      or stdout. The same --seed (default 1) gives the same posts.`;

export const HELP = `sukti: manage a sukti site's content

Usage:
${IMPORT_HELP}
${SEED_HELP}
${UNPUBLISH_HELP}
${DELETE_HELP}
${GENERATE_HELP}
  sukti --help

The database is DATABASE_URL (default ${DEFAULT_DATABASE_URL}; postgres://… for PostgreSQL); a
missing SQLite file is created.
Formats and examples: docs/import.md.
`;

const COMMAND_HELP: Record<string, string> = {
  import: `Usage:\n${IMPORT_HELP}`,
  seed: `Usage:\n${SEED_HELP}`,
  generate: `Usage:\n${GENERATE_HELP}`,
  unpublish: `Usage:\n${UNPUBLISH_HELP}`,
  delete: `Usage:\n${DELETE_HELP}`,
};

/** A SQLite file (`file:path`, a bare path) or a PostgreSQL URL; the store checks it when it opens. */
function databaseUrl(env: NodeJS.ProcessEnv): string {
  return env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
}

/** parseArgs' own errors ("Unknown option '--x'") as usage errors. */
function parse<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    const [firstLine = ""] = (error as Error).message.split("\n");
    throw new UsageError(firstLine.replace(/\. To specify.*$/, ""));
  }
}

const HELP_OPTION = { help: { type: "boolean", short: "h" } } as const;

function plural(n: number, word: string): string {
  return `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;
}

export function formatReport(report: ImportReport, file: string): string {
  const verb = report.dryRun ? "would be " : "";
  const lines = [
    report.dryRun
      ? `dry run of ${file} (${report.format}): nothing was written to ${report.database}`
      : `imported ${file} (${report.format}) into ${report.database}`,
    `posts: ${report.created.toLocaleString("en")} ${verb}created, ${report.updated.toLocaleString("en")} ${verb}updated, ${report.unchanged.toLocaleString("en")} unchanged`,
  ];
  const pages = report.pages;
  if (pages.created + pages.updated + pages.unchanged > 0) {
    lines.push(
      `pages: ${pages.created} ${verb}created, ${pages.updated} ${verb}updated, ${pages.unchanged} unchanged`,
    );
  }
  const reasons = Object.entries(report.skippedReasons)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, count]) => `${count} ${reason}`);
  lines.push(
    `skipped: ${report.skipped.toLocaleString("en")}${reasons.length > 0 ? ` (${reasons.join("; ")})` : ""}`,
  );
  for (const warning of report.warnings.slice(0, 20)) lines.push(`warning: ${warning}`);
  if (report.warnings.length > 20) lines.push(`warning: … and ${report.warnings.length - 20} more`);
  return `${lines.join("\n")}\n`;
}

async function runImport(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values, positionals } = parse(() =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...HELP_OPTION,
        format: { type: "string" },
        language: { type: "string" },
        "source-field": { type: "string" },
        "dry-run": { type: "boolean" },
      },
    }),
  );
  if (values.help) return void process.stdout.write(`${COMMAND_HELP.import}\n`);
  const [file] = positionals;
  if (positionals.length !== 1 || file === undefined)
    throw new UsageError("import takes one FILE: sukti import FILE [options]");
  if (values.format !== undefined && !(FORMATS as readonly string[]).includes(values.format)) {
    throw new UsageError(`unknown format "${values.format}" (use ${FORMATS.join(", ")})`);
  }
  let language: (typeof LANGUAGES)[number] | undefined;
  if (values.language !== undefined) {
    const parsed = parseLanguage(values.language);
    if (!parsed) throw new UsageError(`unknown language "${values.language}" (use ${LANGUAGES.join(", ")})`);
    language = parsed;
  }
  const sourceField = values["source-field"];
  const sourceFields = sourceField === undefined ? undefined : parseSourceFields(sourceField);
  // The write transaction is not committed until the end: an interrupted import changes nothing.
  const interrupted = () => {
    process.stderr.write("\nsukti: interrupted; nothing was imported, the database was not changed\n");
    process.exit(130);
  };
  process.once("SIGINT", interrupted);
  const report = await importFile({
    file,
    databaseUrl: databaseUrl(env),
    format: values.format as Format | undefined,
    language,
    sourceFields,
    dryRun: values["dry-run"] ?? false,
    progress: terminalProgress(),
    env,
  }).finally(() => process.off("SIGINT", interrupted));
  process.stdout.write(formatReport(report, file));
}

async function runSeed(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values, positionals } = parse(() =>
    parseArgs({ args, allowPositionals: true, options: { ...HELP_OPTION, force: { type: "boolean" } } }),
  );
  if (values.help) return void process.stdout.write(`${COMMAND_HELP.seed}\n`);
  if (positionals.length > 0) throw new UsageError(`seed takes no arguments, not "${positionals[0]}"`);
  const report = await seed({ databaseUrl: databaseUrl(env), force: values.force ?? false });
  process.stdout.write(formatReport(report, "the demo content"));
}

/** `sukti unpublish|delete LANGUAGE SLUG`: one post, in one transaction; every server sees it at once. */
async function runRemove(command: "unpublish" | "delete", args: string[], env: NodeJS.ProcessEnv) {
  const { values, positionals } = parse(() =>
    parseArgs({ args, allowPositionals: true, options: HELP_OPTION }),
  );
  if (values.help) return void process.stdout.write(`${COMMAND_HELP[command]}\n`);
  const [languageName, rawSlug] = positionals;
  if (positionals.length !== 2 || languageName === undefined || rawSlug === undefined)
    throw new UsageError(`${command} takes LANGUAGE SLUG: sukti ${command} hindi my-post`);
  const language = parseLanguage(languageName);
  if (!language) throw new UsageError(`unknown language "${languageName}" (use ${LANGUAGES.join(", ")})`);
  const slug = rawSlug.normalize("NFC");
  const writes = await openWrites(databaseUrl(env), false, env);
  try {
    const done =
      command === "unpublish"
        ? await writes.unpublishPost(language, slug)
        : await writes.deletePost(language, slug);
    if (!done) {
      const what = command === "unpublish" ? "no published post" : "no post";
      throw new UserError(`${what} ${language} "${slug}" in ${writes.description}; nothing was changed`);
    }
    process.stdout.write(
      `${command === "unpublish" ? "unpublished" : "deleted"} ${language} "${slug}" in ${writes.description}\n`,
    );
  } finally {
    await writes.close();
  }
}

async function runGenerate(args: string[]): Promise<void> {
  const { values, positionals } = parse(() =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...HELP_OPTION,
        count: { type: "string" },
        out: { type: "string" },
        format: { type: "string" },
        seed: { type: "string" },
      },
    }),
  );
  if (values.help) return void process.stdout.write(`${COMMAND_HELP.generate}\n`);
  if (positionals.length > 0) throw new UsageError(`generate takes no arguments, not "${positionals[0]}"`);
  const count = Number(values.count);
  if (values.count === undefined || !Number.isInteger(count) || count < 0) {
    throw new UsageError("generate needs --count N, a whole number");
  }
  const seedValue = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isInteger(seedValue)) throw new UsageError("--seed must be a whole number");
  const format = values.format ?? (values.out && /\.(ndjson|jsonl)$/i.test(values.out) ? "ndjson" : "json");
  if (format !== "json" && format !== "ndjson")
    throw new UsageError(`unknown format "${format}" (use json or ndjson)`);
  await writeCorpus({ count, seed: seedValue, format, out: values.out });
  if (values.out) process.stderr.write(`wrote ${plural(count, "post")} to ${values.out} (${format})\n`);
}

/** Runs one command; returns the exit code. Errors a user can fix are one line on stderr. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "import":
        await runImport(rest, env);
        return 0;
      case "seed":
        await runSeed(rest, env);
        return 0;
      case "generate":
        await runGenerate(rest);
        return 0;
      case "unpublish":
      case "delete":
        await runRemove(command, rest, env);
        return 0;
      case undefined:
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(HELP);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    return reportError(error);
  }
}

/**
 * A message as one line of bounded length: messages quote input cut short
 * already (schemas.ts quote); this keeps any other one from flooding stderr.
 */
function oneLine(message: string): string {
  return cutText(message.replace(/\s*[\r\n]+\s*/g, " "), MAX_MESSAGE_LENGTH);
}

const MAX_MESSAGE_LENGTH = 2000;

function reportError(error: unknown): number {
  if (error instanceof RejectedError) {
    for (const problem of error.problems) process.stderr.write(`error: ${oneLine(problem)}\n`);
    process.stderr.write(`sukti: ${oneLine(error.message)}\n`);
    return error.exitCode;
  }
  if (error instanceof UsageError) {
    process.stderr.write(`sukti: ${oneLine(error.message)} (see sukti --help)\n`);
    return error.exitCode;
  }
  if (error instanceof UserError) {
    process.stderr.write(`sukti: ${oneLine(error.message)}\n`);
    return error.exitCode;
  }
  if (error instanceof IdNumConflictError || error instanceof TranslationConflictError) {
    process.stderr.write(`sukti: ${error.message}; nothing was imported, the database was not changed\n`);
    return 1;
  }
  const err = error as NodeJS.ErrnoException;
  if (err?.code === "EPIPE") return 0;
  if (err?.code === "ENOENT" || err?.code === "EACCES" || err?.code === "EISDIR") {
    process.stderr.write(
      `sukti: cannot write ${err.path ?? "the file"}: ${err.code === "ENOENT" ? "no such directory" : err.code}\n`,
    );
    return 1;
  }
  // Anything else is a bug or an environment problem (disk full, database locked):
  // one line; the stack only when asked for.
  process.stderr.write(`sukti: ${oneLine(err?.message ?? String(error))}\n`);
  if (process.env.SUKTI_DEBUG) process.stderr.write(`${err?.stack ?? ""}\n`);
  return 1;
}
