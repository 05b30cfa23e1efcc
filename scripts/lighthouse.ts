// `npm run lighthouse`: Lighthouse (mobile preset) on the home page, an English
// and a Hindi post, driving Debian's Chromium; prints the four category scores
// and LCP, CLS and TBT. Lighthouse is fetched by npx on first use, so the
// test install stays lean. Lighthouse 12 still runs on Node 20.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { postPath } from "#app/content/languages.ts";

const LIGHTHOUSE = process.env.LIGHTHOUSE_VERSION ?? "lighthouse@12.8.2";
const root = path.resolve(import.meta.dirname, "..");
const work = mkdtempSync(path.join(tmpdir(), "sukti-lighthouse-"));
const dbPath = path.join(work, "demo.db");
const port = 3950;

if (!existsSync(path.join(root, "build/server/index.js"))) {
  execFileSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" });
}
const server = spawn(process.execPath, ["server.js"], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: `file:${dbPath}`,
    LOG_LEVEL: "error",
  },
  stdio: "inherit",
});
try {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
        `http://127.0.0.1:${port}${target}`,
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
  server.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
