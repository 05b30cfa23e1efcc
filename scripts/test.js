#!/usr/bin/env node
// `npm test`: builds the production server (the integration and browser tests
// run it), then runs every Vitest project and ends with one plain line:
// "tests: N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";

const run = (command, args) =>
  spawnSync(command, args, {
    stdio: "inherit",
    env: { ...process.env, FORCE_COLOR: process.env.CI ? "0" : "1" },
  });

// The browser tests drive Debian's Chromium (never a downloaded browser); the
// PostgreSQL tests start a throwaway server from Debian's postgresql; a test
// edits a database with Debian's stock sqlite3 shell; the sync tests start a
// real WordPress (Debian's wordpress on mariadb-server, behind php-cli's
// built-in server, php-mysql to reach it; tests/support/wordpress.ts).
// The Varnish tests start Debian's varnishd with varnish-modules' xkey.
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// Any of the PostgreSQL versions the tests accept (tests/support/postgres.ts); Debian 12 installs 15.
const postgres =
  ["15", "16", "17"].map((v) => `/usr/lib/postgresql/${v}/bin/initdb`).find((file) => existsSync(file)) ??
  "/usr/lib/postgresql/15/bin/initdb";
const WORDPRESS = {
  wordpress: "/usr/share/wordpress/wp-settings.php",
  "mariadb-server": "/usr/sbin/mariadbd",
  "php-cli": "/usr/bin/php",
};
const phpMysql = () =>
  spawnSync("php", ["-r", 'exit(extension_loaded("mysqli") ? 0 : 1);'], { stdio: "ignore" }).status === 0;
const missingBase = [
  ...(existsSync(chromium) ? [] : ["chromium"]),
  ...(existsSync(postgres) ? [] : ["postgresql"]),
  ...(existsSync("/usr/bin/sqlite3") ? [] : ["sqlite3"]),
  ...(existsSync("/usr/sbin/varnishd") ? [] : ["varnish"]),
  ...(existsSync(
    `/usr/lib/${process.arch === "arm64" ? "aarch64" : "x86_64"}-linux-gnu/varnish/vmods/libvmod_xkey.so`,
  )
    ? []
    : ["varnish-modules"]),
];
const missingWordPress = [
  ...Object.entries(WORDPRESS)
    .filter(([, file]) => !existsSync(file))
    .map(([name]) => name),
  ...(existsSync(WORDPRESS["php-cli"]) && phpMysql() ? [] : ["php-mysql"]),
];
const missing = [...missingBase, ...missingWordPress];
if (missing.length > 0 && process.getuid?.() === 0) {
  console.log(`Installing Debian's ${missing.join(", ")} for the tests…`);
  const apt = "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq";
  // The WordPress packages without recommends: wordpress's themes and translations are
  // not used (the test WordPress has a wp-content of its own). wordpress still pulls in
  // apache2 and libapache2-mod-php (its dependencies; where apt starts services, apache2
  // and mariadb start as services, which the tests never use).
  const install = spawnSync(
    "sh",
    [
      "-c",
      [
        "apt-get update -qq",
        ...(missingBase.length > 0 ? [`${apt} ${missingBase.join(" ")}`] : []),
        ...(missingWordPress.length > 0
          ? [`${apt} --no-install-recommends ${missingWordPress.join(" ")}`]
          : []),
      ].join(" && "),
    ],
    { encoding: "utf8" },
  );
  if (install.status !== 0) process.stdout.write(`${install.stdout}${install.stderr}`);
}
if (!existsSync(chromium)) {
  console.log(`tests: 0 passed, 1 failed (no Chromium at ${chromium}: apt-get install chromium)`);
  process.exit(1);
}
if (!existsSync(postgres) && process.env.CI) {
  console.log(
    "tests: 0 passed, 1 failed (no PostgreSQL 15, 16 or 17 under /usr/lib/postgresql: apt-get install postgresql)",
  );
  process.exit(1);
}

// The build is made again only when a file it is made from is newer than it
// (a fresh clone always builds): a second run right after the first skips it.
const BUILD = "build/server/index.js";
const SOURCES = ["app", "server", "public", "react-router.config.ts", "vite.config.ts", "package-lock.json"];
function newestSource(target) {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(target)) newest = Math.max(newest, newestSource(`${target}/${name}`));
  return newest;
}
const built = statSync(BUILD, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (built > Math.max(...SOURCES.map(newestSource))) {
  console.log(`The build is newer than its sources: not building again (${BUILD}).`);
} else {
  const build = run("npx", ["react-router", "build"]);
  if (build.status !== 0) {
    console.log("tests: 0 passed, 1 failed (the build failed)");
    process.exit(1);
  }
}

mkdirSync("test-results", { recursive: true });
const extra = process.argv.slice(2);
const vitest = run("npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile.json=test-results/vitest.json",
  ...extra,
]);

let summary = "tests: 0 passed, 1 failed (no report)";
try {
  const report = JSON.parse(readFileSync("test-results/vitest.json", "utf8"));
  // A file whose setup failed (a beforeAll that timed out) fails no test of its own: Vitest
  // marks its tests skipped. It is counted as a failure here, as the exit status does.
  const brokenFiles = report.testResults.filter(
    (file) => file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed"),
  );
  const failed = report.numFailedTests + brokenFiles.length;
  const skipped =
    report.numPendingTests +
    report.numTodoTests -
    brokenFiles.reduce(
      (n, file) => n + file.assertionResults.filter((test) => test.status !== "passed").length,
      0,
    );
  const broken = brokenFiles.length
    ? ` (${brokenFiles.length} file${brokenFiles.length === 1 ? "" : "s"} failed to set up: ${brokenFiles.map((file) => file.name.replace(`${process.cwd()}/`, "")).join(", ")})`
    : "";
  summary = `tests: ${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}${broken}`;
  if (report.numTotalTests === 0) summary = "tests: 0 passed, 1 failed (no test ran)";
} catch {
  // No readable report: the summary above stands.
}
console.log(summary);
process.exit(vitest.status ?? 1);
