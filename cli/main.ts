import { parseArgs } from "node:util";
import { LANGUAGES } from "#app/content/languages.ts";
import { cutText, parseLanguage } from "#app/content/schemas.ts";
import { IdNumConflictError, TranslationConflictError } from "#app/data/content-writer.ts";
import { DEFAULT_DATABASE_URL } from "#app/data/open-store.server.ts";
import { DEFAULT_SYNCED_IMAGE_DIR } from "#app/data/synced-images.server.ts";
import { setCurrentSite } from "#app/site.ts";
import { loadSiteConfig } from "#app/site-config.server.ts";
import { RejectedError, UsageError, UserError } from "#cli/errors.ts";
import { writeCorpus } from "#cli/generate.ts";
import { type ImportReport, importFile, openWrites } from "#cli/import.ts";
import { terminalProgress } from "#cli/progress.ts";
import { formatPushStats, formatRun, pushSend, pushStats } from "#cli/push.ts";
import { seed } from "#cli/seed.ts";
import { FORMATS, type Format, parseSourceFields } from "#cli/source.ts";
import { formatStats, parseStatsLanguage, statsReport } from "#cli/stats.ts";
import { formatSyncReport, type SyncOptions, syncSite } from "#cli/sync.ts";

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

const SYNC_HELP = `  sukti sync SITE_URL [--language english|hindi|marathi]
                   [--language-category english=SLUG,hindi=SLUG,marathi=SLUG]
                   [--source-field SPEC] [--full] [--dry-run] [--every 10m]
                   [--user NAME] [--media-host HOST]... [--image-dir DIR]
      Keep the posts of a live WordPress site in step, through its REST API.
      Each run writes what changed in one transaction (a failed run changes
      nothing) and prints one line: created, updated, unpublished, unchanged,
      skipped (then one line per skipped post and why).
      --language   the language of posts neither Polylang, WPML nor a category names
      --language-category english=SLUG,...
                   the categories (slug or name) that say a post's language;
                   categories named English, Hindi, Marathi, हिंदी or मराठी count by themselves
      --source-field SPEC   as for import (default: the post's author is its person)
      --full       read every post again (not only those modified since the last run)
      --dry-run    read everything and report what would change, writing nothing
      --every D    sync again every D (30s, 10m, 1h) until SIGTERM or SIGINT
      --user NAME  an Application Password's user; the password is SUKTI_WP_PASSWORD
      --media-host HOST   another host the site's featured images may come from
      --image-dir DIR     where featured images are downloaded (default
                   SYNCED_IMAGE_DIR, else data/synced-images; served at /images/synced/)`;

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

const STATS_HELP = `  sukti stats [--days N] [--language english|hindi|marathi] [--json] [--roll-up]
      What readers read, as the servers counted it (no cookie, no address, no
      user agent is kept): top posts per language, searches that found
      nothing, busiest days and hours, referrers, 404s; bots apart.
      --days       the last N days of the site, today included (default 30)
      --language   only that language's pages and posts
      --json       the same as JSON
      --roll-up    roll days older than STATS_RETENTION months (default 13)
                   into monthly totals now (the servers do it once a day)`;

const PUSH_HELP = `  sukti push send [--language english|hindi|marathi]
      Send the quote of the day now by Web Push to every subscriber of the
      language (default: every subscriber), each at most once; an interrupted
      send of the same language is finished instead. Needs PUBLIC_URL and
      VAPID_SUBJECT (decision 060).
  sukti push stats [--json]
      Subscribers per language and hour, and the last send's result.`;

export const HELP = `sukti: manage a sukti site's content

Usage:
${IMPORT_HELP}
${SYNC_HELP}
${SEED_HELP}
${UNPUBLISH_HELP}
${DELETE_HELP}
${GENERATE_HELP}
${STATS_HELP}
${PUSH_HELP}
  sukti --help

The database is DATABASE_URL (default ${DEFAULT_DATABASE_URL}; postgres://… for PostgreSQL); a
missing SQLite file is created.
Formats and examples: docs/import.md.
`;

const COMMAND_HELP: Record<string, string> = {
  import: `Usage:\n${IMPORT_HELP}`,
  sync: `Usage:\n${SYNC_HELP}`,
  seed: `Usage:\n${SEED_HELP}`,
  generate: `Usage:\n${GENERATE_HELP}`,
  unpublish: `Usage:\n${UNPUBLISH_HELP}`,
  delete: `Usage:\n${DELETE_HELP}`,
  stats: `Usage:\n${STATS_HELP}`,
  push: `Usage:\n${PUSH_HELP}`,
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
  const hidden = Object.entries(report.unpublished).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (hidden.length > 0) {
    const total = hidden.reduce((sum, [, count]) => sum + count, 0);
    lines.push(
      `not published: ${total.toLocaleString("en")} (${hidden.map(([reason, count]) => `${count} ${reason}`).join("; ")})`,
    );
  }
  if (report.titlesMade > 0) {
    lines.push(`titles made from the opening words: ${report.titlesMade.toLocaleString("en")}`);
    for (const { label, title } of report.titlesMadeList) lines.push(`  ${label}: ${JSON.stringify(title)}`);
    const more = report.titlesMade - report.titlesMadeList.length;
    if (more > 0) lines.push(`  … and ${more.toLocaleString("en")} more`);
  }
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

/** "30s", "10m", "1h" as milliseconds. */
export function parseEvery(value: string): number {
  const match = /^\s*(\d+)\s*(s|m|h)\s*$/i.exec(value);
  const unit = { s: 1000, m: 60_000, h: 3_600_000 }[(match?.[2] ?? "").toLowerCase() as "s" | "m" | "h"];
  const ms = match && unit ? Number(match[1]) * unit : 0;
  if (!ms) throw new UsageError(`--every "${value}" is not a duration such as 30s, 10m or 1h`);
  return ms;
}

/** --language-category english=SLUG,hindi=SLUG,marathi=SLUG */
export function parseLanguageCategories(spec: string): Partial<Record<(typeof LANGUAGES)[number], string>> {
  const result: Partial<Record<(typeof LANGUAGES)[number], string>> = {};
  for (const part of spec.split(",")) {
    const at = part.indexOf("=");
    const language = parseLanguage(at < 0 ? "" : part.slice(0, at));
    const slug = part.slice(at + 1).trim();
    if (at < 0 || !language || slug === "") {
      throw new UsageError(
        `--language-category "${part.trim()}" is not LANGUAGE=SLUG (e.g. hindi=hindi-quotes)`,
      );
    }
    result[language] = slug;
  }
  return result;
}

async function runSync(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parse(() =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...HELP_OPTION,
        language: { type: "string" },
        "language-category": { type: "string" },
        "source-field": { type: "string" },
        full: { type: "boolean" },
        "dry-run": { type: "boolean" },
        every: { type: "string" },
        user: { type: "string" },
        "media-host": { type: "string", multiple: true },
        "image-dir": { type: "string" },
      },
    }),
  );
  if (values.help) {
    process.stdout.write(`${COMMAND_HELP.sync}\n`);
    return 0;
  }
  const [siteUrl] = positionals;
  if (positionals.length !== 1 || siteUrl === undefined)
    throw new UsageError("sync takes one SITE_URL: sukti sync https://blog.example [options]");
  let language: (typeof LANGUAGES)[number] | undefined;
  if (values.language !== undefined) {
    const parsed = parseLanguage(values.language);
    if (!parsed) throw new UsageError(`unknown language "${values.language}" (use ${LANGUAGES.join(", ")})`);
    language = parsed;
  }
  const every = values.every === undefined ? null : parseEvery(values.every);
  const password = env.SUKTI_WP_PASSWORD ?? "";
  if (values.user !== undefined && password === "") {
    throw new UsageError("--user needs the Application Password in SUKTI_WP_PASSWORD");
  }
  const options: SyncOptions = {
    siteUrl,
    databaseUrl: databaseUrl(env),
    imageDir: values["image-dir"] || env.SYNCED_IMAGE_DIR?.trim() || DEFAULT_SYNCED_IMAGE_DIR,
    language,
    languageCategories:
      values["language-category"] === undefined
        ? undefined
        : parseLanguageCategories(values["language-category"]),
    sourceFields:
      values["source-field"] === undefined ? undefined : parseSourceFields(values["source-field"]),
    mediaHosts: (values["media-host"] ?? []).map((host) => host.trim()).filter((host) => host !== ""),
    full: values.full ?? false,
    dryRun: values["dry-run"] ?? false,
    ...(values.user === undefined ? {} : { user: values.user, password }),
    // Each retry's reason on stderr only when asked: a run's output is its summary, a failure one line.
    ...(env.SUKTI_DEBUG ? { client: { log: (line: string) => process.stderr.write(`${line}\n`) } } : {}),
  };
  if (every === null) {
    // The write transaction commits at the very end: an interrupted sync changes nothing.
    const interrupted = () => {
      process.stderr.write("\nsukti: interrupted; the database was not changed\n");
      process.exit(130);
    };
    process.once("SIGINT", interrupted);
    process.once("SIGTERM", interrupted);
    try {
      process.stdout.write(formatSyncReport(await syncSite(options)));
    } finally {
      process.off("SIGINT", interrupted);
      process.off("SIGTERM", interrupted);
    }
    return 0;
  }
  // --every: a run, a wait, again; SIGTERM or SIGINT stop after the run under way (a second one at once).
  let stopping = false;
  let wake: (() => void) | null = null;
  const stop = () => {
    if (stopping) {
      process.stderr.write("sukti: stopped during a run; its changes were not written\n");
      process.exit(130);
    }
    stopping = true;
    wake?.();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    while (!stopping) {
      try {
        process.stdout.write(formatSyncReport(await syncSite(options)));
      } catch (error) {
        // One failed run is one line; the next run tries again.
        reportError(error);
      }
      if (stopping) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, every);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  process.stderr.write("sukti: sync stopped\n");
  return 0;
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

async function runStats(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values, positionals } = parse(() =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...HELP_OPTION,
        days: { type: "string" },
        language: { type: "string" },
        json: { type: "boolean" },
        "roll-up": { type: "boolean" },
      },
    }),
  );
  if (values.help) return void process.stdout.write(`${COMMAND_HELP.stats}\n`);
  if (positionals.length > 0) throw new UsageError(`stats takes no arguments, not "${positionals[0]}"`);
  const days = values.days === undefined ? 30 : Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 3660)
    throw new UsageError("--days must be a whole number from 1 to 3660");
  const language = parseStatsLanguage(values.language);
  if (values.language !== undefined && !language)
    throw new UsageError(`unknown language "${values.language}" (use ${LANGUAGES.join(", ")})`);
  const retention = env.STATS_RETENTION?.trim() ? Number(env.STATS_RETENTION) : 13;
  if (!Number.isInteger(retention) || retention < 1)
    throw new UsageError("STATS_RETENTION must be a whole number of months, 1 or more");
  const result = await statsReport({
    databaseUrl: databaseUrl(env),
    statsDatabaseUrl: env.STATS_DATABASE_URL,
    days,
    language,
    retentionMonths: retention,
    rollUp: values["roll-up"] ?? false,
  });
  if (result === null) {
    const message = "no stats yet: the site has not counted anything (is it running with STATS=on?)";
    process.stdout.write(values.json ? `${JSON.stringify({ error: message })}\n` : `${message}\n`);
    return;
  }
  if ("rolledUp" in result) {
    process.stdout.write(
      values.json
        ? `${JSON.stringify(result)}\n`
        : `rolled ${plural(result.rolledUp, "daily row")} older than ${retention} months into monthly totals in ${result.database}\n`,
    );
    return;
  }
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : formatStats(result));
}

async function runPush(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values, positionals } = parse(() =>
    parseArgs({
      args,
      allowPositionals: true,
      options: { ...HELP_OPTION, language: { type: "string" }, json: { type: "boolean" } },
    }),
  );
  const [action, extra] = positionals;
  if (values.help || action === undefined) return void process.stdout.write(`${COMMAND_HELP.push}\n`);
  if (extra !== undefined) throw new UsageError(`push ${action} takes no more arguments, not "${extra}"`);
  if (action === "send") {
    const language = values.language === undefined ? "" : parseLanguage(values.language);
    if (language === null)
      throw new UsageError(`unknown language "${values.language}" (use ${LANGUAGES.join(", ")})`);
    const result = await pushSend(env, language);
    if (result === null) return void process.stdout.write("no subscribers yet: nothing was sent\n");
    process.stdout.write(
      values.json
        ? `${JSON.stringify(result)}\n`
        : `${result.resumed ? "finished an interrupted send: " : ""}${formatRun(result.run)}\n`,
    );
    return;
  }
  if (action === "stats") {
    const stats = await pushStats(env);
    if (stats === null)
      return void process.stdout.write(values.json ? '{"subscribers":0}\n' : "no subscribers yet\n");
    process.stdout.write(values.json ? `${JSON.stringify(stats, null, 2)}\n` : formatPushStats(stats));
    return;
  }
  throw new UsageError(`unknown push command "${action}" (use send or stats)`);
}

/** Runs one command; returns the exit code. Errors a user can fix are one line on stderr. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  try {
    // The site's time zone reads WordPress's local dates (cli/wxr/time-zone.ts): SITE_CONFIG's, as the server's.
    if (env.SITE_CONFIG) {
      const site = loadSiteConfig(env.SITE_CONFIG);
      setCurrentSite(site.config, site.version);
    }
    switch (command) {
      case "import":
        await runImport(rest, env);
        return 0;
      case "sync":
        return await runSync(rest, env);
      case "seed":
        await runSeed(rest, env);
        return 0;
      case "generate":
        await runGenerate(rest);
        return 0;
      case "stats":
        await runStats(rest, env);
        return 0;
      case "push":
        await runPush(rest, env);
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
