-- The daily quote by Web Push (issue 30 §1, decision 060): tables of the
-- site's database, never part of the content version (only content writes
-- bump content_version), so subscriptions and sends leave page caches alone.

-- The VAPID key pair: one row, made on the first start (the first insert wins).
CREATE TABLE push_keys (
  id smallint PRIMARY KEY CHECK (id = 1),
  -- base64url: the uncompressed P-256 point (65 bytes) and the private scalar (32 bytes).
  public_key text NOT NULL,
  private_key text NOT NULL,
  created_at bigint NOT NULL
);

-- A reader's subscription: nothing about the reader but what sending needs.
CREATE TABLE push_subscriptions (
  id bigserial PRIMARY KEY,
  endpoint text NOT NULL UNIQUE,
  p256dh text NOT NULL,
  auth text NOT NULL,
  language text NOT NULL CHECK (language IN ('english', 'hindi', 'marathi')),
  hour smallint NOT NULL CHECK (hour BETWEEN 0 AND 23),
  time_zone text NOT NULL,
  -- YYYY-MM-DD (UTC) of the first subscription: how many are new today.
  created_day text NOT NULL
);
CREATE INDEX push_subscriptions_zone_hour ON push_subscriptions (time_zone, hour, id);

-- A send: the scheduler's (one per tick that found subscribers due) or `sukti push send`'s.
CREATE TABLE push_runs (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('scheduled', 'manual')),
  -- '' for every language.
  language text NOT NULL,
  -- A manual send: the subscriptions up to this id when it started.
  last_subscription bigint NOT NULL,
  state text NOT NULL CHECK (state IN ('running', 'done', 'interrupted')),
  started_at bigint NOT NULL,
  heartbeat_at bigint NOT NULL,
  finished_at bigint,
  sent integer NOT NULL DEFAULT 0,
  removed integer NOT NULL DEFAULT 0,
  retried integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0
);

-- The send log: a row per subscription and slot ('day:YYYY-MM-DD' in the
-- subscriber's zone, or 'run:N'), inserted before the request goes out. The
-- insert is the claim: a second sender (a restart, another node) finds it and
-- sends nothing, so a message goes out at most once; one left 'sending' by a
-- crash is never sent again.
CREATE TABLE push_sends (
  subscription_id bigint NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
  slot text NOT NULL,
  run_id bigint NOT NULL,
  state text NOT NULL CHECK (state IN ('sending', 'sent', 'retry', 'failed')),
  attempts integer NOT NULL,
  -- 'retry': not before this time (ms).
  next_at bigint,
  updated_at bigint NOT NULL,
  PRIMARY KEY (subscription_id, slot)
);
CREATE INDEX push_sends_retry ON push_sends (state, next_at);
CREATE INDEX push_sends_updated ON push_sends (updated_at);

-- Who sends: one holder at a time, renewed while it runs (a lease, so a node
-- that dies hands over when it runs out).
CREATE TABLE push_lease (
  name text PRIMARY KEY,
  holder text NOT NULL,
  expires_at bigint NOT NULL
);
