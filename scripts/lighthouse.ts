// `npm run lighthouse`: Lighthouse (mobile preset) on the home page, an English
// and a Hindi post, driving Debian's Chromium; prints the four category scores
// and LCP, CLS and TBT. Lighthouse is fetched by npx on first use, so the
// test install stays lean. Lighthouse 12 still runs on Node 20.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { postPath } from "#app/content/languages.ts";
import { startServer } from "#tests/support/server.ts";

const LIGHTHOUSE = process.env.LIGHTHOUSE_VERSION ?? "lighthouse@12.8.2";
const root = path.resolve(import.meta.dirname, "..");
const work = mkdtempSync(path.join(tmpdir(), "sukti-lighthouse-"));
const dbPath = path.join(work, "demo.db");

if (!existsSync(path.join(root, "build/server/index.js"))) {
  execFileSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" });
}
const server = await startServer({ dbPath, env: { LOG_LEVEL: "error", SUKTI_RANDOM_SEED: "" } });
try {
  const db = new Database(dbPath, { readonly: true });
  const newest = (language: string) =>
    db
      .prepare(
        "SELECT slug FROM posts WHERE status = 'publish' AND language = ? ORDER BY post_time DESC LIMIT 1",
      )
      .pluck()
      .get(language) as string;
  const pages = {
    home: "/",
    "english post": postPath("english", newest("english")),
    "hindi post": postPath("hindi", newest("hindi")),
  };
  db.close();

  console.log("| page | performance | accessibility | best practices | SEO | LCP | CLS | TBT |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const [label, target] of Object.entries(pages)) {
    const out = path.join(work, `${label.replace(/\W/g, "-")}.json`);
    execFileSync(
      "npx",
      [
        "-y",
        LIGHTHOUSE,
        `${server.url}${target}`,
        "--output=json",
        `--output-path=${out}`,
        "--quiet",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking --disable-component-update --no-first-run",
      ],
      {
        cwd: root,
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, CHROME_PATH: "/usr/bin/chromium" },
      },
    );
    const report = JSON.parse(readFileSync(out, "utf8"));
    const score = (id: string) => Math.round((report.categories[id]?.score ?? 0) * 100);
    const audit = (id: string) => report.audits[id]?.displayValue ?? "?";
    console.log(
      `| ${label} | ${score("performance")} | ${score("accessibility")} | ${score("best-practices")} | ${score("seo")} | ${audit("largest-contentful-paint")} | ${audit("cumulative-layout-shift")} | ${audit("total-blocking-time")} |`,
    );
    for (const id of ["accessibility", "best-practices", "seo"]) {
      for (const ref of report.categories[id]?.auditRefs ?? []) {
        const result = report.audits[ref.id];
        if (ref.weight > 0 && result && result.score !== null && result.score < 1)
          console.log(`  ${label} · ${id}: ${result.title}`);
      }
    }
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
