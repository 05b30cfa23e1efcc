-- What readers read (issue 28 §4, decision 056). Flushed in batches by every
-- node as additive upserts; never part of the content version (only content
-- writes bump content_version). One row per period (a day, or a month once
-- rolled up), bot or reader, kind of count, language ('' for none) and item
-- (a post's slug, a page kind, a search, a referrer host, a 404 path, an
-- hour '00'..'23'). Nothing about who read: no address, no user agent, no
-- cookie, no time finer than an hour.
CREATE TABLE stats_counts (
  period text NOT NULL CHECK (period IN ('day', 'month')),
  day text NOT NULL,
  bot smallint NOT NULL CHECK (bot IN (0, 1)),
  kind text NOT NULL,
  language text NOT NULL,
  item text NOT NULL,
  count bigint NOT NULL,
  -- Searches: how many quotes the text found when it was last searched.
  results integer,
  PRIMARY KEY (period, day, bot, kind, language, item)
);
