// `sukti sync SITE`: a live WordPress site kept in step through its REST API
// (decision 053). Each run reads first (the list of every
// published post's id and modified time, then the posts that changed), then
// writes in one transaction through the import's write rules
// (app/data/content-writer.ts), with what it keeps per site (app/data/sync-state.ts):
// a failed or killed run leaves the database as it was; a run that finds
// nothing changed writes nothing.
import type { Language } from "#app/content/languages.ts";
import type { PostRecord } from "#app/content/schemas.ts";
import { postKey } from "#app/data/content-writer.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import type { SyncPostState, SyncSourceState } from "#app/data/sync-state.ts";
import { UserError } from "#cli/errors.ts";
import { openWrites } from "#cli/import.ts";
import type { SourceFields } from "#cli/source.ts";
import { type ClientOptions, FetchError, HttpError, WordPressClient } from "#cli/sync-client.ts";
import { SyncedImages } from "#cli/sync-images.ts";
import { describePost, gmtSeconds, mapPost, type WpPost } from "#cli/sync-map.ts";

/** Posts are read in full again at least this often (author names, category renames do not touch a post's modified time). */
export const FULL_READ_EVERY_SECONDS = 24 * 60 * 60;
/**
 * modified_after asks from this long before the newest modified time seen:
 * WordPress compares it, converted to the site's time zone, with the local
 * post_modified, which a daylight-saving change makes ambiguous for an hour.
 */
const MODIFIED_MARGIN_SECONDS = 60 * 60;
/** The fields of a post sync reads: the rest of a REST post is left on the site. */
const EMBED = "author,wp:featuredmedia,wp:term";

export interface SyncOptions {
  siteUrl: string;
  databaseUrl: string;
  /** SYNCED_IMAGE_DIR (or --image-dir). */
  imageDir: string;
  language?: Language;
  languageCategories?: Partial<Record<Language, string>>;
  sourceFields?: SourceFields;
  mediaHosts?: string[];
  full?: boolean;
  dryRun?: boolean;
  user?: string;
  password?: string;
  client?: Partial<ClientOptions>;
  /** Epoch seconds now (tests). */
  now?: () => number;
}

export interface SyncReport {
  source: string;
  database: string;
  dryRun: boolean;
  /** Every post was read (first run, --full, a site without modified_after, once a day). */
  fullRead: boolean;
  created: number;
  updated: number;
  unpublished: number;
  unchanged: number;
  skipped: { post: string; reason: string }[];
  warnings: string[];
  imagesDownloaded: number;
  /** Requests sent again after a 429, 5xx, timeout or lost connection. */
  retries: number;
}

/** The site's address as sync keys it: http(s), no query, no trailing slash. */
export function normaliseSiteUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value.includes("://") ? value : `https://${value}`);
  } catch {
    throw new UserError(`"${value.slice(0, 80)}" is not a site address (use https://blog.example)`, 2);
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password) {
    throw new UserError(`"${value.slice(0, 80)}" is not an http(s) site address without a user`, 2);
  }
  url.search = "";
  url.hash = "";
  url.pathname = url.pathname.replace(/\/+$/, "") || "/";
  return url;
}

function sourceKey(url: URL): string {
  return `${url.origin}${url.pathname === "/" ? "" : url.pathname}`;
}

interface Planned {
  wpId: number;
  label: string;
  modifiedGmt: string;
  record: PostRecord;
}

/** Reads the site, then writes what changed in one transaction. */
export async function syncSite(options: SyncOptions): Promise<SyncReport> {
  const site = normaliseSiteUrl(options.siteUrl);
  const source = sourceKey(site);
  const dryRun = options.dryRun ?? false;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  let retries = 0;
  const client = new WordPressClient(site, {
    ...options.client,
    log: (line) => {
      retries++;
      options.client?.log?.(line);
    },
    ...(options.user ? { auth: { user: options.user, password: options.password ?? "" } } : {}),
  });
  const writes = await openWrites(options.databaseUrl, dryRun);
  // Reading the site fails before anything is written: said in one line.
  const failed = (error: unknown): never => {
    if (error instanceof UserError) {
      throw new UserError(`sync ${source}: ${error.message}; the database was not changed`);
    }
    throw error;
  };
  try {
    return await run();
  } catch (error) {
    if (error instanceof FetchError || error instanceof HttpError) failed(error);
    throw error;
  } finally {
    await writes.close();
  }

  async function run(): Promise<SyncReport> {
    // What the last runs kept (read, not written: the run's own transaction reads it again).
    const before = await writes.transaction({ incoming: new Set(), dryRun: true }, async (_writer, sync) => ({
      state: await sync.source(source),
      posts: await sync.posts(source),
    }));
    const stored = new Map(before.posts.map((post) => [post.wpId, post]));

    const { modifiedAfter } = await client.discover();
    // WordPress answers public routes even to a wrong Application Password: asked who signed in, it says.
    if (options.user) {
      try {
        await client.getJson(client.url("/wp/v2/users/me", { _fields: "id" }));
      } catch (error) {
        if (error instanceof HttpError && (error.status === 401 || error.status === 403)) {
          throw new FetchError(
            `WordPress refused the user "${options.user.slice(0, 80)}" and its Application Password (HTTP ${error.status}; check --user and SUKTI_WP_PASSWORD)`,
          );
        }
        throw error;
      }
    }
    // Every published post's id and modified time: what vanished is unpublished.
    const listed = new Map<number, string>();
    for await (const page of client.pages("/wp/v2/posts", {
      _fields: "id,modified_gmt",
      orderby: "id",
      order: "asc",
    })) {
      for (const item of page as { id?: unknown; modified_gmt?: unknown }[]) {
        if (Number.isInteger(item?.id)) listed.set(item.id as number, String(item.modified_gmt ?? ""));
      }
    }

    // A post deleted while the list was paged shifts the later pages by one: a post missing from
    // the list is unpublished only if asking for it by id does not find it published either.
    const absent = before.posts
      .filter((post) => post.published && !listed.has(post.wpId))
      .map((post) => post.wpId);
    for (let at = 0; at < absent.length; at += 100) {
      const include = absent.slice(at, at + 100).join(",");
      for await (const page of client.pages("/wp/v2/posts", { _fields: "id,modified_gmt", include })) {
        for (const item of page as { id?: unknown; modified_gmt?: unknown }[]) {
          if (Number.isInteger(item?.id)) listed.set(item.id as number, String(item.modified_gmt ?? ""));
        }
      }
    }

    const state = before.state;
    const fullRead =
      (options.full ?? false) ||
      state === null ||
      !modifiedAfter ||
      now() - state.lastFullReadAt >= FULL_READ_EVERY_SECONDS;
    const fetched = new Map<number, WpPost>();
    const take = (page: unknown[]) => {
      for (const item of page as WpPost[]) if (Number.isInteger(item?.id)) fetched.set(item.id, item);
    };
    const postParams = { _embed: EMBED, orderby: "id", order: "asc" };
    if (fullRead) {
      for await (const page of client.pages("/wp/v2/posts", postParams)) take(page);
    } else {
      const since = gmtSeconds(state?.lastModifiedGmt) ?? 0;
      // With its zone ("Z"): WordPress reads a time without one as the site's local time.
      const after = `${new Date(Math.max(0, since - MODIFIED_MARGIN_SECONDS) * 1000).toISOString().slice(0, 19)}Z`;
      try {
        for await (const page of client.pages("/wp/v2/posts", { ...postParams, modified_after: after }))
          take(page);
      } catch (error) {
        // A site that refuses modified_after (400): read everything instead.
        if (!(error instanceof HttpError) || error.status !== 400) throw error;
        for await (const page of client.pages("/wp/v2/posts", postParams)) take(page);
      }
      // Listed posts whose modified time is not the one written, or that sync unpublished (and not just read): read them too.
      const missing = [...listed]
        .filter(([id, modified]) => {
          const known = stored.get(id);
          return !fetched.has(id) && (known?.modifiedGmt !== modified || !known.published);
        })
        .map(([id]) => id);
      for (let at = 0; at < missing.length; at += 100) {
        const include = missing.slice(at, at + 100).join(",");
        for await (const page of client.pages("/wp/v2/posts", { ...postParams, include })) take(page);
      }
    }

    const report: SyncReport = {
      source,
      database: writes.description,
      dryRun,
      fullRead,
      created: 0,
      updated: 0,
      unpublished: 0,
      unchanged: 0,
      skipped: [],
      warnings: [],
      imagesDownloaded: 0,
      retries: 0,
    };
    const images = new SyncedImages(client, {
      dir: options.imageDir,
      mediaHosts: options.mediaHosts ?? [],
      dryRun,
    });
    const planned: Planned[] = [];
    const skippedIds = new Set<number>();
    for (const [id, post] of [...fetched].sort((a, b) => a[0] - b[0])) {
      // Read by modified_after or include but no longer published: the listing decides.
      if (!listed.has(id) || (post.status !== undefined && post.status !== "publish")) continue;
      const mapped = mapPost(post, options);
      const label = describePost(post);
      if (mapped.kind === "skip") {
        report.skipped.push({ post: label, reason: mapped.reason });
        skippedIds.add(id);
        continue;
      }
      let record = mapped.record;
      if (mapped.media) {
        const image = await images.localCopy(mapped.media);
        if ("refused" in image) report.warnings.push(`${label}: ${image.refused}; the post has no image`);
        else {
          record = { ...record, featureImageUrl: image.url };
          if (image.downloaded) report.imagesDownloaded++;
        }
      }
      planned.push({ wpId: id, label, modifiedGmt: post.modified_gmt ?? listed.get(id) ?? "", record });
    }

    const newest = [...listed.values()].reduce((a, b) => (b > a ? b : a), "");
    // Every post of this source may give up its idNum or translation group to another of its posts.
    const ours = new Set<string>();
    await writes.transaction({ incoming: ours, dryRun }, async (writer, sync) => {
      // Read again inside the transaction: another run may have committed since.
      const current = new Map((await sync.posts(source)).map((post) => [post.wpId, post]));
      const state = (await sync.source(source)) ?? {
        url: source,
        lastModifiedGmt: "",
        lastFullReadAt: 0,
        fullReads: 0,
      };
      const next: SyncSourceState = {
        url: source,
        lastModifiedGmt: newest > state.lastModifiedGmt ? newest : state.lastModifiedGmt,
        lastFullReadAt: fullRead ? now() : state.lastFullReadAt,
        fullReads: state.fullReads + (fullRead ? 1 : 0),
      };
      // The site's row first: its posts' rows refer to it.
      if (!dryRun && state.fullReads === 0 && state.lastFullReadAt === 0) await sync.saveSource(next);
      for (const post of current.values()) ours.add(postKey(post.language, post.slug));
      for (const plan of planned) ours.add(postKey(plan.record.language, plan.record.slug));
      const groups = new Set<string>();

      const save = async (post: SyncPostState, prior: SyncPostState | undefined) => {
        if (dryRun) return;
        if (
          prior &&
          prior.language === post.language &&
          prior.slug === post.slug &&
          prior.modifiedGmt === post.modifiedGmt &&
          prior.record === post.record &&
          prior.published === post.published
        )
          return;
        await sync.savePost(source, post);
      };

      /** Writes the post a source's record was as a draft (it left the site's published posts). */
      const unpublish = async (prior: SyncPostState) => {
        const found = await sync.findPost(prior.language, prior.slug);
        if (found) {
          // The record as written then (the schema's output): written again, only its status changed.
          const record: PostRecord = {
            ...(JSON.parse(prior.record) as PostRecord),
            status: "draft",
            idNum: found.idNum,
            translationKey: found.translationKey ?? undefined,
          };
          const outcome = await writer.writePost(record, sanitizePostHtml(record.content));
          if (outcome !== "unchanged") report.unpublished++;
        }
        await save({ ...prior, published: false }, prior);
      };

      for (const plan of planned) {
        let { record } = plan;
        let renamed = false;
        const prior = current.get(plan.wpId);
        if (prior && prior.language !== record.language) {
          // Its language changed (another category): the old post leaves, a new one comes.
          if (prior.published) await unpublish(prior);
        } else if (prior && prior.slug !== record.slug) {
          const taken = await sync.findPost(record.language, record.slug);
          const old = await sync.findPost(prior.language, prior.slug);
          if (taken && old) {
            report.skipped.push({
              post: plan.label,
              reason: `slug: ${record.language} "${record.slug}" is another post's; renaming "${prior.slug}" would take it`,
            });
            continue;
          }
          if (old) {
            await sync.renamePost(record.language, prior.slug, record.slug);
            renamed = true;
          }
        }
        const holder = await sync.findByIdNum(record.language, record.idNum);
        if (holder && holder.slug !== record.slug && !ours.has(postKey(record.language, holder.slug))) {
          report.skipped.push({
            post: plan.label,
            reason: `idNum ${record.idNum} (${record.language}) is held by post "${holder.slug}", not from this site`,
          });
          continue;
        }
        if (record.translationKey !== undefined) {
          const group = `${record.translationKey}\n${record.language}`;
          const member = await sync.findTranslation(record.translationKey, record.language);
          if (
            groups.has(group) ||
            (member && member.slug !== record.slug && !ours.has(postKey(record.language, member.slug)))
          ) {
            report.warnings.push(
              `${plan.label}: translation group ${record.translationKey} already has a ${record.language} post; written without it`,
            );
            record = { ...record, translationKey: undefined };
          } else groups.add(group);
        }
        const written = await writer.writePost(record, sanitizePostHtml(record.content));
        // A post whose only change was its slug was renamed above: it is updated, not unchanged.
        const outcome = renamed && written === "unchanged" ? "updated" : written;
        report[outcome]++;
        await save(
          {
            wpId: plan.wpId,
            language: record.language,
            slug: record.slug,
            modifiedGmt: plan.modifiedGmt,
            record: JSON.stringify(record),
            published: true,
          },
          prior,
        );
      }

      // Posts of this source no longer published (trashed, drafted, privated, deleted, or now skipped).
      const written = new Set(planned.map((plan) => plan.wpId));
      for (const prior of current.values()) {
        if (!prior.published) continue;
        if (listed.has(prior.wpId) && !skippedIds.has(prior.wpId)) {
          if (!written.has(prior.wpId)) report.unchanged++;
          continue;
        }
        await unpublish(prior);
      }

      if (
        !dryRun &&
        (state.lastModifiedGmt !== next.lastModifiedGmt ||
          state.lastFullReadAt !== next.lastFullReadAt ||
          state.fullReads !== next.fullReads)
      ) {
        await sync.saveSource(next);
      }
    });
    report.retries = retries;
    return report;
  }
}

function count(n: number, what: string): string {
  return `${n.toLocaleString("en")} ${what}`;
}

/** The run's lines: the summary first, then one per skipped post and warning. */
export function formatSyncReport(report: SyncReport): string {
  const changed = report.created + report.updated + report.unpublished;
  const tail = `${count(report.unchanged, "unchanged")}, ${count(report.skipped.length, "skipped")}`;
  let summary: string;
  if (report.dryRun) {
    summary =
      changed === 0
        ? `dry run of sync ${report.source}: nothing would change (${tail}); nothing was written`
        : `dry run of sync ${report.source}: would be ${report.created} created, ${report.updated} updated, ${report.unpublished} unpublished; ${tail}; nothing was written`;
  } else {
    summary =
      changed === 0
        ? `sync ${report.source}: nothing changed (${tail})`
        : `sync ${report.source}: ${report.created} created, ${report.updated} updated, ${report.unpublished} unpublished, ${tail} in ${report.database}`;
  }
  if (report.imagesDownloaded > 0)
    summary += `; ${count(report.imagesDownloaded, report.imagesDownloaded === 1 ? "image" : "images")} downloaded`;
  if (report.retries > 0) {
    summary += `; ${report.retries.toLocaleString("en")} ${report.retries === 1 ? "request" : "requests"} retried`;
  }
  const lines = [summary];
  for (const skip of report.skipped) lines.push(`skipped: ${skip.post}: ${skip.reason}`);
  for (const warning of report.warnings.slice(0, 50)) lines.push(`warning: ${warning}`);
  if (report.warnings.length > 50) lines.push(`warning: … and ${report.warnings.length - 50} more`);
  return `${lines.join("\n")}\n`;
}
