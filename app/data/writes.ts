// The write seam: what the `sukti` command does to the content (import, seed,
// unpublish, delete), one implementation per database, picked by DATABASE_URL
// in ./open-writes.server.ts. The write side, file by file:
// - ./content-writer.ts: the write rules, once (upsert by language and slug,
//   idNum moves, terms, people, the search document), over a WriteTarget;
// - <db>/write-target.server.ts: each database's statements for the rules;
// - <db>/transaction.server.ts: each database's one write transaction
//   (begin, lock, write, bump, commit; a dry run's snapshot);
// - <db>/content-writes.server.ts: ContentWrites below, for that database.
import type { Language } from "#app/content/languages.ts";
import type { ContentChange } from "#app/data/cache-tags.ts";
import type { AsyncContentWriter } from "#app/data/content-writer.ts";
import type { SyncTarget } from "#app/data/sync-state.ts";

/**
 * The database cannot be opened for these writes (read-only, not a database,
 * unreachable): the message is one line for the user, naming the database.
 */
export class WritesRefusedError extends Error {}

export interface PostKey {
  language: Language;
  idNum: number;
  slug: string;
  /** Its translation group, or null. */
  translationKey: string | null;
}

/** The keys a file's posts take: idNums in a language, places in a translation group. */
export interface PostKeysWanted {
  idNums: readonly { language: Language; idNum: number }[];
  groups: readonly { translationKey: string; language: Language }[];
}

/**
 * Called after each write commits, with what it changed as cache tags
 * (decision 057): the `sukti` command purges shared caches there (PURGE_URL).
 * Not called when nothing a visitor sees changed.
 */
export type AfterCommit = (changes: ContentChange[]) => Promise<void>;

export interface ContentWrites {
  /** The database, for messages: a file path, or a postgres URL without its password. */
  readonly description: string;
  /**
   * Every post of any status: the importer checks a file's idNums against
   * them before writing. With `only`, the posts holding one of those idNums
   * or places in a translation group, each an index seek (a small import
   * need not read 100,000 posts' keys).
   */
  postKeys(only?: PostKeysWanted): AsyncIterable<PostKey>;
  /** The slugs of every page. */
  pageSlugs(): Promise<string[]>;
  /**
   * Runs `write` in one transaction: committed when it resolves, rolled back
   * (nothing changed, as if it never ran) when it throws or with `dryRun`.
   * Readers see the old content or the new, never part; every server's page
   * cache sees the new content within a second of the commit. `sync` reads
   * and writes `sukti sync`'s state in the same transaction.
   */
  transaction<T>(
    options: { incoming: { has(key: string): boolean }; dryRun?: boolean },
    write: (writer: AsyncContentWriter, sync: SyncTarget) => Promise<T>,
  ): Promise<T>;
  /** Takes a published post off the site (status draft); false when there is no such post. */
  unpublishPost(language: Language, slug: string): Promise<boolean>;
  /** Deletes a post of any status; false when there is no such post. */
  deletePost(language: Language, slug: string): Promise<boolean>;
  close(): Promise<void>;
}
