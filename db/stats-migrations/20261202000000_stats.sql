-- What readers read (issue 28 §4, decision 056), in a SQLite file of its own
-- beside the site's database: any commit to the site's file changes its
-- PRAGMA data_version, which is the content version the page cache keys on,
-- so a stats flush there would empty every worker's page cache.
-- One row per period (a day, or a month once rolled up), bot or reader, kind
-- of count, language ('' for none) and item (a post's slug, a page kind, a
-- search, a referrer host, a 404 path, an hour '00'..'23'). Nothing about
-- who read: no address, no user agent, no cookie, no time finer than an hour.
CREATE TABLE IF NOT EXISTS stats_counts (
  period TEXT NOT NULL CHECK (period IN ('day', 'month')),
  day TEXT NOT NULL,
  bot INTEGER NOT NULL CHECK (bot IN (0, 1)),
  kind TEXT NOT NULL,
  language TEXT NOT NULL,
  item TEXT NOT NULL,
  count INTEGER NOT NULL,
  -- Searches: how many quotes the text found when it was last searched.
  results INTEGER,
  PRIMARY KEY (period, day, bot, kind, language, item)
) WITHOUT ROWID;
