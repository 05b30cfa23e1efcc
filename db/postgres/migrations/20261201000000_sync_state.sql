-- The same tables as db/migrations/20261201000000_sync_state.sql.
-- `sukti sync` (issue 28 §1, decision 053): what it keeps per WordPress site,
-- written in the same transaction as the content it syncs.
-- A site: the newest modified_gmt seen (modified_after asks from there) and
-- when its posts were last read in full.
CREATE TABLE sync_sources (
  url text PRIMARY KEY,
  last_modified_gmt text NOT NULL DEFAULT '',
  last_full_read_at bigint NOT NULL DEFAULT 0,
  full_reads integer NOT NULL DEFAULT 0
);

-- A WordPress post of a site and the sukti post it was written as (language
-- and slug: a slug or title edited in WordPress updates the same post), with
-- the record as last written (a vanished post is written again as a draft)
-- and the featured image it was given. published = 0 once sync unpublished it.
CREATE TABLE sync_posts (
  source text NOT NULL REFERENCES sync_sources (url) ON DELETE CASCADE,
  wp_id bigint NOT NULL,
  language text NOT NULL,
  slug text COLLATE "C" NOT NULL,
  modified_gmt text NOT NULL,
  record text NOT NULL,
  published integer NOT NULL DEFAULT 1,
  PRIMARY KEY (source, wp_id)
);
