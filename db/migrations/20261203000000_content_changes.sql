-- What each write changed, as cache tags (decision 057): servers read the
-- rows past the last one they saw and drop or refresh only the pages showing
-- those tags. Written by sukti's writers in the write's own transaction;
-- `removal` rows (an unpublish, a delete, a post leaving a list) drop pages at
-- once, the others are refreshed in the background. Old rows are pruned.
CREATE TABLE content_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  tags TEXT NOT NULL,
  removal INTEGER NOT NULL DEFAULT 0,
  at INTEGER NOT NULL DEFAULT (unixepoch())
);

-- A write to the content that did not come through sukti's writers (an
-- operator's sqlite3, a migration) cannot say what it changed: it counts in
-- `external`, and servers then drop every page, as before decision 057. The
-- writers set `writing` for the length of their transaction.
CREATE TABLE content_epoch (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  external INTEGER NOT NULL DEFAULT 0,
  writing INTEGER NOT NULL DEFAULT 0
);
INSERT INTO content_epoch (id) VALUES (1);
CREATE TRIGGER posts_insert_external AFTER INSERT ON posts
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER posts_update_external AFTER UPDATE ON posts
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER posts_delete_external AFTER DELETE ON posts
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER pages_insert_external AFTER INSERT ON pages
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER pages_update_external AFTER UPDATE ON pages
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER pages_delete_external AFTER DELETE ON pages
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER terms_insert_external AFTER INSERT ON terms
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER terms_update_external AFTER UPDATE ON terms
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER terms_delete_external AFTER DELETE ON terms
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER people_insert_external AFTER INSERT ON people
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER people_update_external AFTER UPDATE ON people
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER people_delete_external AFTER DELETE ON people
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER post_terms_insert_external AFTER INSERT ON post_terms
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER post_terms_update_external AFTER UPDATE ON post_terms
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
CREATE TRIGGER post_terms_delete_external AFTER DELETE ON post_terms
WHEN (SELECT writing FROM content_epoch WHERE id = 1) = 0
BEGIN UPDATE content_epoch SET external = external + 1 WHERE id = 1; END;
