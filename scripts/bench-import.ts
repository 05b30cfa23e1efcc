// `npm run bench:import [-- --count N]`: how long `sukti import` takes for a
// large file and how much memory it needs, against a baseline measured in the
// same run: the same rows written with raw better-sqlite3 statements in the
// importer's order (terms linked before a post), with no validation, no
// sanitizing, no upsert checks and no search index (the importer folds each
// published post into search_documents and search_index; no trigger does
// that for raw writes). Each measurement runs in its own process, so peak
// RSS is that run's alone. With `--store postgres`: `sukti import` into
// PostgreSQL beside SQLite's import of the same file, in the same run.
import { execFileSync } from "node:child_process";
import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { slugify } from "#app/content/slugs.ts";
import { migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { writeCorpus } from "#cli/generate.ts";
import { importFile } from "#cli/import.ts";
import { postgresAvailable, startPostgres } from "#tests/support/postgres.ts";

interface Measurement {
  seconds: number;
  peakRssMb: number;
  summary: string;
}

async function child(mode: string, file: string, dbPath: string): Promise<void> {
  const started = performance.now();
  let summary: string;
  if (mode === "baseline") {
    summary = await rawInsert(file, dbPath);
  } else {
    const databaseUrl = dbPath.startsWith("postgres") ? dbPath : `file:${dbPath}`;
    const report = await importFile({ file, databaseUrl });
    summary = `${report.created} created, ${report.updated} updated, ${report.unchanged} unchanged`;
  }
  const measurement: Measurement = {
    seconds: (performance.now() - started) / 1000,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    summary,
  };
  process.stdout.write(JSON.stringify(measurement));
}

/** The floor: parse each line and write post, terms and links as the importer does, in one transaction. */
async function rawInsert(file: string, dbPath: string): Promise<string> {
  const { db } = openDatabase(`file:${dbPath}`);
  migrate(db);
  const insertPost = db.prepare(
    `INSERT INTO posts (language, id_num, status, post_time, title, slug, feature_image_url, content, excerpt)
     VALUES (@language, @idNum, @status, @postTime, @title, @slug, @featureImageUrl, @content, @excerpt)`,
  );
  const insertTerm = db.prepare("INSERT INTO terms (kind, name, slug) VALUES (?, ?, ?) RETURNING id");
  const link = db.prepare("INSERT OR IGNORE INTO post_terms (post_id, term_id) VALUES (?, ?)");
  const publish = db.prepare("UPDATE posts SET status = 'publish' WHERE id = ?");
  const terms = new Map<string, number>();
  const termId = (kind: string, name: string) => {
    const key = `${kind}\n${name}`;
    let id = terms.get(key);
    if (id === undefined) {
      id = (insertTerm.get(kind, name, slugify(name)) as { id: number }).id;
      terms.set(key, id);
    }
    return id;
  };
  let rows = 0;
  db.exec("BEGIN IMMEDIATE");
  for await (const line of createInterface({
    input: createReadStream(file),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    if (!line) continue;
    const post = JSON.parse(line);
    const published = post.status === "publish";
    const id = Number(insertPost.run(published ? { ...post, status: "draft" } : post).lastInsertRowid);
    for (const name of post.tags) link.run(id, termId("tag", name));
    for (const name of post.categories) link.run(id, termId("category", name));
    if (published) publish.run(id);
    rows++;
  }
  db.exec("COMMIT");
  db.close();
  return `${rows} inserted`;
}

function measure(mode: string, file: string, dbPath: string): Measurement {
  const output = execFileSync(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "bench-import.ts"), "--child", mode, file, dbPath],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 20 },
  );
  return JSON.parse(output) as Measurement;
}

function row(label: string, m: Measurement): string {
  return `${label.padEnd(34)} ${m.seconds.toFixed(1).padStart(6)} s ${m.peakRssMb.toFixed(0).padStart(6)} MB   ${m.summary}`;
}

async function bench(count: number, postgres: boolean): Promise<void> {
  if (postgres && !postgresAvailable()) process.exit(2);
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-bench-"));
  try {
    const ndjson = path.join(dir, "corpus.ndjson");
    const json = path.join(dir, "corpus.json");
    const small = path.join(dir, "small.ndjson");
    await writeCorpus({ count, seed: 1, format: "ndjson", out: ndjson });
    await writeCorpus({ count, seed: 1, format: "json", out: json });
    await writeCorpus({ count: Math.ceil(count / 10), seed: 1, format: "ndjson", out: small });
    const mb = (file: string) => (statSync(file).size / 1024 / 1024).toFixed(0);
    console.log(`corpus: ${count.toLocaleString("en")} posts, NDJSON ${mb(ndjson)} MB, JSON ${mb(json)} MB`);
    console.log(
      `node ${process.version}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}, ${new Date().toISOString().slice(0, 10)}\n`,
    );
    console.log(`${"".padEnd(34)} ${"time".padStart(8)} ${"peak RSS".padStart(9)}`);

    const baseline = measure("baseline", ndjson, path.join(dir, "baseline.db"));
    console.log(row("baseline: raw writes (NDJSON)", baseline));
    if (postgres) {
      await benchPostgres(
        count,
        ndjson,
        small,
        baseline,
        measure("import", ndjson, path.join(dir, "import.db")),
      );
      return;
    }
    const fresh = measure("import", ndjson, path.join(dir, "import.db"));
    console.log(row("sukti import NDJSON, empty db", fresh));
    const again = measure("import", ndjson, path.join(dir, "import.db"));
    console.log(row("sukti import NDJSON again", again));
    const fromJson = measure("import", json, path.join(dir, "json.db"));
    console.log(row("sukti import JSON, empty db", fromJson));
    const tenth = measure("import", small, path.join(dir, "small.db"));
    console.log(
      row(`sukti import ${Math.ceil(count / 10).toLocaleString("en")} posts (memory check)`, tenth),
    );

    console.log(
      `\nratio: import / baseline = ${(fresh.seconds / baseline.seconds).toFixed(2)}x time, ${(fresh.peakRssMb / baseline.peakRssMb).toFixed(2)}x peak RSS`,
    );
    console.log(
      `memory: ${count.toLocaleString("en")} posts peak at ${fresh.peakRssMb.toFixed(0)} MB, a tenth of them at ${tenth.peakRssMb.toFixed(0)} MB`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * --store postgres: `sukti import` into a throwaway PostgreSQL server
 * (tests/support/postgres.ts), beside SQLite's import of the same file in
 * the same run; `dbPath` of a child is then the database's URL.
 */
async function benchPostgres(
  count: number,
  ndjson: string,
  small: string,
  baseline: Measurement,
  sqlite: Measurement,
): Promise<void> {
  console.log(row("sukti import NDJSON, SQLite, empty", sqlite));
  const server = await startPostgres();
  try {
    const url = await server.createDatabase("bench_import");
    const fresh = measure("import", ndjson, url);
    console.log(row("sukti import NDJSON, PostgreSQL", fresh));
    const again = measure("import", ndjson, url);
    console.log(row("sukti import again, PostgreSQL", again));
    const tenth = measure("import", small, await server.createDatabase("bench_import_small"));
    console.log(row(`PostgreSQL ${Math.ceil(count / 10).toLocaleString("en")} posts (memory check)`, tenth));
    const rate = (m: Measurement) => Math.round(count / m.seconds).toLocaleString("en");
    console.log(
      `\nPostgreSQL: ${rate(fresh)} posts/s into an empty database (SQLite ${rate(sqlite)} posts/s, raw SQLite writes ${rate(baseline)} posts/s, same run); PostgreSQL / SQLite import = ${(fresh.seconds / sqlite.seconds).toFixed(2)}x time`,
    );
    console.log(
      `memory: ${count.toLocaleString("en")} posts peak at ${fresh.peakRssMb.toFixed(0)} MB, a tenth of them at ${tenth.peakRssMb.toFixed(0)} MB`,
    );
  } finally {
    await server.stop();
  }
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    child: { type: "string" },
    count: { type: "string", default: "100000" },
    store: { type: "string" },
  },
});
if (values.store !== undefined && values.store !== "postgres") {
  console.error("bench:import: --store takes postgres (measured beside SQLite in the same run)");
  process.exit(2);
}
if (values.child) {
  const [file, database] = positionals;
  await child(values.child, file!, database!);
} else {
  await bench(Number(values.count), values.store === "postgres");
}
