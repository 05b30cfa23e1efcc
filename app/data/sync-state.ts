// What `sukti sync` keeps per WordPress site (decision 053), read and written
// inside the same transaction as the content it syncs (ContentWrites.transaction
// hands it over beside the writer): a failed or killed sync leaves both as
// they were. One implementation per database (sqlite/ and postgres/
// sync-state.server.ts); the tables are db/migrations/20261201000000_sync_state.sql.
import type { Language } from "#app/content/languages.ts";

export interface SyncSourceState {
  url: string;
  /** The newest modified_gmt seen ("2026-11-25T10:00:00"), "" before the first run. */
  lastModifiedGmt: string;
  /** When the site's posts were last read in full (epoch seconds), 0 never. */
  lastFullReadAt: number;
  fullReads: number;
}

/** A WordPress post of a source and the sukti post it was written as. */
export interface SyncPostState {
  wpId: number;
  language: Language;
  slug: string;
  modifiedGmt: string;
  /** The import record as last written (JSON of the PostRecordSchema input). */
  record: string;
  /** False once sync unpublished it (it vanished from the site's published posts). */
  published: boolean;
}

export interface SyncTarget {
  /** The source's state, null before its first committed sync. */
  source(url: string): Promise<SyncSourceState | null>;
  /** Every post the source was written as. */
  posts(url: string): Promise<SyncPostState[]>;
  saveSource(state: SyncSourceState): Promise<void>;
  savePost(url: string, post: SyncPostState): Promise<void>;
  /** A post of the database (any source): id, idNum and translation group. */
  findPost(
    language: Language,
    slug: string,
  ): Promise<{ id: number; idNum: number; translationKey: string | null } | null>;
  findByIdNum(language: Language, idNum: number): Promise<{ slug: string } | null>;
  findTranslation(translationKey: string, language: Language): Promise<{ slug: string } | null>;
  /** Gives a post a new slug (WordPress's slug was edited); the caller checked the new one is free. */
  renamePost(language: Language, from: string, to: string): Promise<void>;
  /** Whether this transaction changed content the writer does not count (a rename). */
  readonly contentChanged: boolean;
}
