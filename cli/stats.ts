// `sukti stats`: what readers read, from the counts the servers wrote
// (server/stats.ts, decision 056): top posts per language, searches that
// found nothing, busiest days and hours, referrers, 404s, and bots apart.
import { isLanguage, LANGUAGES, type Language, postPath } from "#app/content/languages.ts";
import { openServedStore } from "#app/data/open-store.server.ts";
import type { ContentStore } from "#app/data/store.ts";
import { currentSite } from "#app/site.ts";
import { retentionCutoff, siteHourClock } from "../server/stats.ts";
import { openStatsStore, type StoredRow, statsDatabaseUrl } from "../server/stats-store.ts";

export interface StatsOptions {
  databaseUrl: string;
  statsDatabaseUrl?: string;
  days: number;
  language?: Language;
  retentionMonths: number;
  /** Only roll old days up (as the servers do once a day). */
  rollUp?: boolean;
  now?: () => number;
}

interface Counted {
  count: number;
}
export interface StatsReport {
  database: string;
  from: string;
  to: string;
  language: Language | null;
  readers: { pageViews: number; pages: Record<string, number>; languages: Record<string, number> };
  topPosts: Record<string, (Counted & { slug: string; title: string | null; path: string })[]>;
  searches: {
    total: number;
    found: (Counted & { text: string; results: number | null })[];
    nothingFound: (Counted & { text: string })[];
  };
  busiestDays: (Counted & { day: string })[];
  busiestHours: (Counted & { hour: string })[];
  referrers: (Counted & { host: string })[];
  notFound: (Counted & { path: string })[];
  clicks: Record<string, number>;
  shareImages: { viewed: number; downloaded: number };
  feeds: Record<string, number>;
  bots: {
    pageViews: number;
    pages: Record<string, number>;
    feeds: number;
    shareImages: number;
    notFound: number;
    searches: number;
  };
}

const TOP = 10;

function addTo(record: Record<string, number>, key: string, n: number) {
  record[key] = (record[key] ?? 0) + n;
}

function top<K extends string>(record: Record<string, number>, key: K, limit = TOP) {
  return Object.entries(record)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([name, count]) => ({ [key]: name, count }) as Counted & Record<K, string>);
}

function daysBefore(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

export async function statsReport(
  options: StatsOptions,
): Promise<StatsReport | { rolledUp: number; database: string } | null> {
  const url = statsDatabaseUrl(options.databaseUrl, options.statsDatabaseUrl);
  const store = await openStatsStore(url, { create: false });
  if (!store) return null;
  const { day: today } = siteHourClock(currentSite().timeZone, options.now)();
  try {
    if (options.rollUp) {
      const rolledUp = await store.rollUp(retentionCutoff(today, options.retentionMonths));
      return { rolledUp, database: store.description };
    }
    const from = daysBefore(today, options.days - 1);
    const rows = await store.read(from);
    return await summarise(
      rows,
      { from, to: today, language: options.language ?? null, database: store.description },
      options.databaseUrl,
    );
  } finally {
    await store.close();
  }
}

async function summarise(
  rows: StoredRow[],
  meta: { from: string; to: string; language: Language | null; database: string },
  databaseUrl: string,
): Promise<StatsReport> {
  const wanted = (row: StoredRow) =>
    meta.language === null || row.language === "" || row.language === meta.language;
  const report: StatsReport = {
    ...meta,
    readers: { pageViews: 0, pages: {}, languages: {} },
    topPosts: {},
    searches: { total: 0, found: [], nothingFound: [] },
    busiestDays: [],
    busiestHours: [],
    referrers: [],
    notFound: [],
    clicks: {},
    shareImages: { viewed: 0, downloaded: 0 },
    feeds: {},
    bots: { pageViews: 0, pages: {}, feeds: 0, shareImages: 0, notFound: 0, searches: 0 },
  };
  const posts: Record<string, Record<string, number>> = {};
  const days: Record<string, number> = {};
  const hours: Record<string, number> = {};
  const referrers: Record<string, number> = {};
  const notFound: Record<string, number> = {};
  const searches = new Map<string, { count: number; results: number | null }>();
  for (const row of rows) {
    if (row.period !== "day" || !wanted(row)) continue;
    const n = Number(row.count);
    if (row.bot === 1) {
      const bots = report.bots;
      if (row.kind === "page") {
        bots.pageViews += n;
        addTo(bots.pages, row.item, n);
      } else if (row.kind === "feed") bots.feeds += n;
      else if (row.kind === "share-image" || row.kind === "download") bots.shareImages += n;
      else if (row.kind === "not-found") bots.notFound += n;
      else if (row.kind === "search") bots.searches += n;
      continue;
    }
    switch (row.kind) {
      case "page":
        report.readers.pageViews += n;
        addTo(report.readers.pages, row.item, n);
        if (row.language) addTo(report.readers.languages, row.language, n);
        addTo(days, row.day, n);
        break;
      case "post":
        posts[row.language] ??= {};
        addTo(posts[row.language] ?? {}, row.item, n);
        break;
      case "hour":
        if (meta.language === null) addTo(hours, row.item, n);
        break;
      case "search": {
        const seen = searches.get(row.item) ?? { count: 0, results: null };
        seen.count += n;
        if (row.results !== null) seen.results = Number(row.results);
        searches.set(row.item, seen);
        report.searches.total += n;
        break;
      }
      case "referrer":
        addTo(referrers, row.item, n);
        break;
      case "not-found":
        addTo(notFound, row.item, n);
        break;
      case "feed":
        addTo(report.feeds, row.item, n);
        break;
      case "share-image":
        report.shareImages.viewed += n;
        break;
      case "download":
        report.shareImages.downloaded += n;
        break;
      default:
        addTo(report.clicks, row.kind, n);
    }
  }
  const ordered = [...searches].sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1));
  report.searches.nothingFound = ordered
    .filter(([, s]) => s.results === 0)
    .slice(0, 20)
    .map(([text, s]) => ({ text, count: s.count }));
  report.searches.found = ordered
    .filter(([, s]) => s.results !== 0)
    .slice(0, TOP)
    .map(([text, s]) => ({ text, count: s.count, results: s.results }));
  report.busiestDays = top(days, "day", 7);
  report.busiestHours = top(hours, "hour", 5);
  report.referrers = top(referrers, "host");
  report.notFound = top(notFound, "path", 20);
  let content: ContentStore | null = null;
  try {
    content = await openServedStore(databaseUrl);
  } catch {
    // Titles are a nicety: without the site's database the report shows paths.
  }
  try {
    for (const language of LANGUAGES) {
      const counts = posts[language];
      if (!counts) continue;
      report.topPosts[language] = await Promise.all(
        top(counts, "slug").map(async ({ slug, count }) => ({
          slug,
          count,
          path: postPath(language, slug),
          title: (await content?.getPost(language, slug).catch(() => null))?.title ?? null,
        })),
      );
    }
  } finally {
    await content?.close();
  }
  return report;
}

function line(count: number, text: string): string {
  return `  ${String(count.toLocaleString("en")).padStart(7)}  ${text}`;
}

function listed(record: Record<string, number>): string {
  const entries = Object.entries(record).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return entries.length === 0
    ? "none"
    : entries.map(([name, n]) => `${name} ${n.toLocaleString("en")}`).join(", ");
}

export function formatStats(report: StatsReport): string {
  const out: string[] = [];
  const scope = report.language ? `, ${report.language} only` : "";
  out.push(
    `sukti stats: ${report.from} to ${report.to} (the site's days, ${currentSite().timeZone}${scope}) from ${report.database}`,
  );
  out.push(
    `Readers: ${report.readers.pageViews.toLocaleString("en")} page views (${listed(report.readers.pages)})`,
  );
  if (Object.keys(report.readers.languages).length > 0)
    out.push(`  by language: ${listed(report.readers.languages)}`);
  out.push("", "Top posts");
  const languages = Object.keys(report.topPosts);
  if (languages.length === 0) out.push("  none");
  for (const language of languages) {
    out.push(`  ${language}`);
    for (const post of report.topPosts[language] ?? [])
      out.push(line(post.count, `${post.title ?? "(no longer published)"}  /${language}/${post.slug}`));
  }
  out.push("", `Searches: ${report.searches.total.toLocaleString("en")}`);
  for (const search of report.searches.found)
    out.push(line(search.count, `${search.text}  (${search.results ?? "?"} found)`));
  out.push(
    "",
    "Searches that found nothing (what readers want that the site lacks, or words missing from concepts.json?)",
  );
  if (report.searches.nothingFound.length === 0) out.push("  none");
  for (const search of report.searches.nothingFound) out.push(line(search.count, search.text));
  out.push("", "Busiest days (page views)");
  if (report.busiestDays.length === 0) out.push("  none");
  for (const day of report.busiestDays) out.push(line(day.count, day.day));
  if (report.language === null) {
    out.push("", "Busiest hours (the site's time, page views)");
    if (report.busiestHours.length === 0) out.push("  none");
    for (const hour of report.busiestHours) out.push(line(hour.count, `${hour.hour}:00–${hour.hour}:59`));
  }
  out.push("", "Referrers (other sites linking here)");
  if (report.referrers.length === 0) out.push("  none");
  for (const referrer of report.referrers) out.push(line(referrer.count, referrer.host));
  out.push("", "Not found (404)");
  if (report.notFound.length === 0) out.push("  none");
  for (const path of report.notFound) out.push(line(path.count, path.path));
  out.push(
    "",
    `Copy and share clicks: ${listed(report.clicks)}`,
    `Share images: ${report.shareImages.viewed.toLocaleString("en")} shown, ${report.shareImages.downloaded.toLocaleString("en")} downloaded`,
    `Feed fetches: ${listed(report.feeds)} (feed reader apps count as bots: ${report.bots.feeds.toLocaleString("en")})`,
  );
  const bots = report.bots;
  out.push(
    "",
    `Bots (by user agent; not in the counts above): ${bots.pageViews.toLocaleString("en")} page views (${listed(bots.pages)}), ${bots.feeds} feed fetches, ${bots.shareImages} share images, ${bots.searches} searches, ${bots.notFound} not found`,
  );
  return `${out.join("\n")}\n`;
}

export function parseStatsLanguage(value: string | undefined): Language | undefined {
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  return isLanguage(lower) ? lower : undefined;
}
