-- The daily quote by Web Push (issue 30 §1, decision 060), in a SQLite file of
-- its own beside the site's database (data/sukti.db → data/sukti-push.db):
-- any commit to the site's file changes its PRAGMA data_version, the content
-- version every page cache keys on, so a subscription or a send written there
-- would empty every worker's page cache.

-- The VAPID key pair: one row, made on the first start (the first insert wins).
CREATE TABLE IF NOT EXISTS push_keys (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  -- base64url: the uncompressed P-256 point (65 bytes) and the private scalar (32 bytes).
  public_key TEXT NOT NULL,
  private_key TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- A reader's subscription: nothing about the reader but what sending needs.
CREATE TABLE IF NOT EXISTS push_subscriptions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint TEXT NOT NULL UNIQUE,
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  language TEXT NOT NULL CHECK (language IN ('english', 'hindi', 'marathi')),
  hour INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
  time_zone TEXT NOT NULL,
  -- YYYY-MM-DD (UTC) of the first subscription: how many are new today.
  created_day TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS push_subscriptions_zone_hour ON push_subscriptions (time_zone, hour, id);

-- A send: the scheduler's (one per tick that found subscribers due) or `sukti push send`'s.
CREATE TABLE IF NOT EXISTS push_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('scheduled', 'manual')),
  -- '' for every language.
  language TEXT NOT NULL,
  -- A manual send: the subscriptions up to this id when it started.
  last_subscription INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'done', 'interrupted')),
  started_at INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL,
  finished_at INTEGER,
  sent INTEGER NOT NULL DEFAULT 0,
  removed INTEGER NOT NULL DEFAULT 0,
  retried INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0
);

-- The send log: a row per subscription and slot ('day:YYYY-MM-DD' in the
-- subscriber's zone, or 'run:N'), inserted before the request goes out. The
-- insert is the claim: a second sender (a restart, another node) finds it and
-- sends nothing, so a message goes out at most once; one left 'sending' by a
-- crash is never sent again.
CREATE TABLE IF NOT EXISTS push_sends (
  subscription_id INTEGER NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
  slot TEXT NOT NULL,
  run_id INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('sending', 'sent', 'retry', 'failed')),
  attempts INTEGER NOT NULL,
  -- 'retry': not before this time (ms).
  next_at INTEGER,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (subscription_id, slot)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS push_sends_retry ON push_sends (state, next_at);
CREATE INDEX IF NOT EXISTS push_sends_updated ON push_sends (updated_at);

-- Who sends: one holder at a time, renewed while it runs (a lease, so a node
-- that dies hands over when it runs out).
CREATE TABLE IF NOT EXISTS push_lease (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
