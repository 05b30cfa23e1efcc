-- Published posts counted per term, per person and per language, kept by the
-- database itself (decision 081): /tags, the sitemap's terms and languages,
-- /people, a person's page and every language's count read a few rows here
-- instead of counting every published post (at 100,000 posts the tags' count
-- took ~0.75 s, on the server's event loop, after every write that adds a post).
--
--   kind      'term' (id: terms.id), 'person' (id: people.id), 'language' (id: 0)
--   posts     the published posts of that kind, id and language
--   updated_at the latest time that list changed: a post joining it or being
--             edited (the post's updated_at), or leaving it (the time it left)
--
-- Every INSERT, UPDATE and DELETE keeps it, whoever makes it (sukti's
-- writers, a sqlite3 shell): each trigger below adds or takes away one post.
-- Not counted (decision 081): SQLite's REPLACE conflict resolution (it fires
-- no delete trigger), and writes made with foreign keys off (a deleted
-- post's links left behind). Rows that fall to 0 stay (the reads ask for
-- posts > 0; the row still dates its list) until their term or person is deleted.
CREATE TABLE published_counts (
  kind TEXT NOT NULL CHECK (kind IN ('term', 'person', 'language')),
  id INTEGER NOT NULL,
  language TEXT NOT NULL,
  posts INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (kind, id, language)
) WITHOUT ROWID;

INSERT INTO published_counts (kind, id, language, posts, updated_at)
SELECT 'language', 0, language, count(*), max(updated_at) FROM posts WHERE status = 'publish'
GROUP BY language;
INSERT INTO published_counts (kind, id, language, posts, updated_at)
SELECT 'person', person_id, language, count(*), max(updated_at) FROM posts
WHERE status = 'publish' AND person_id IS NOT NULL GROUP BY person_id, language;
INSERT INTO published_counts (kind, id, language, posts, updated_at)
SELECT 'term', pt.term_id, p.language, count(*), max(p.updated_at)
FROM post_terms pt JOIN posts p ON p.id = pt.post_id AND p.status = 'publish'
GROUP BY pt.term_id, p.language;

-- A post entering a list (published) or leaving it: each statement adds
-- `delta` (1 or -1) to the rows of one post's language, person and terms.
-- (SQLite's upsert after a SELECT needs the WHERE; ON CONFLICT follows it.)
CREATE TRIGGER posts_counted_insert AFTER INSERT ON posts
WHEN NEW.status = 'publish'
BEGIN
  INSERT INTO published_counts VALUES ('language', 0, NEW.language, 1, NEW.updated_at)
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
  INSERT INTO published_counts SELECT 'person', NEW.person_id, NEW.language, 1, NEW.updated_at
  WHERE NEW.person_id IS NOT NULL
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
END;

-- An edit leaves the lists it was in (at the time of the edit) and joins the
-- ones it is now in (at its updated_at): the counts of a post that stays are
-- unchanged, the lists' time moves on.
CREATE TRIGGER posts_counted_update AFTER UPDATE OF status, language, person_id, updated_at ON posts
WHEN (OLD.status = 'publish' OR NEW.status = 'publish')
  AND (OLD.status IS NOT NEW.status OR OLD.language IS NOT NEW.language
    OR OLD.person_id IS NOT NEW.person_id OR OLD.updated_at IS NOT NEW.updated_at)
BEGIN
  INSERT INTO published_counts SELECT 'language', 0, OLD.language, -1, unixepoch()
  WHERE OLD.status = 'publish'
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
  INSERT INTO published_counts SELECT 'person', OLD.person_id, OLD.language, -1, unixepoch()
  WHERE OLD.status = 'publish' AND OLD.person_id IS NOT NULL
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
  INSERT INTO published_counts SELECT 'term', term_id, OLD.language, -1, unixepoch()
  FROM post_terms WHERE post_id = OLD.id AND OLD.status = 'publish'
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
  INSERT INTO published_counts SELECT 'language', 0, NEW.language, 1, NEW.updated_at
  WHERE NEW.status = 'publish'
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
  INSERT INTO published_counts SELECT 'person', NEW.person_id, NEW.language, 1, NEW.updated_at
  WHERE NEW.status = 'publish' AND NEW.person_id IS NOT NULL
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
  INSERT INTO published_counts SELECT 'term', term_id, NEW.language, 1, NEW.updated_at
  FROM post_terms WHERE post_id = NEW.id AND NEW.status = 'publish'
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
END;

-- Before the post goes: its terms are still linked (the cascade that unlinks
-- them runs after the row is gone, and then finds no post to count).
CREATE TRIGGER posts_counted_delete BEFORE DELETE ON posts
WHEN OLD.status = 'publish'
BEGIN
  INSERT INTO published_counts SELECT 'language', 0, OLD.language, -1, unixepoch()
  WHERE true
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
  INSERT INTO published_counts SELECT 'person', OLD.person_id, OLD.language, -1, unixepoch()
  WHERE OLD.person_id IS NOT NULL
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
  INSERT INTO published_counts SELECT 'term', term_id, OLD.language, -1, unixepoch()
  FROM post_terms WHERE post_id = OLD.id
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
END;

-- A published post given a term, or losing one.
CREATE TRIGGER post_terms_counted_insert AFTER INSERT ON post_terms
BEGIN
  INSERT INTO published_counts SELECT 'term', NEW.term_id, p.language, 1, p.updated_at
  FROM posts p WHERE p.id = NEW.post_id AND p.status = 'publish'
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
END;

-- (A deleted term's links go after it: it has no count left to change.)
CREATE TRIGGER post_terms_counted_delete AFTER DELETE ON post_terms
BEGIN
  INSERT INTO published_counts SELECT 'term', OLD.term_id, p.language, -1, unixepoch()
  FROM posts p JOIN terms t ON t.id = OLD.term_id WHERE p.id = OLD.post_id AND p.status = 'publish'
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
END;

CREATE TRIGGER post_terms_counted_update AFTER UPDATE ON post_terms
BEGIN
  INSERT INTO published_counts SELECT 'term', OLD.term_id, p.language, -1, unixepoch()
  FROM posts p WHERE p.id = OLD.post_id AND p.status = 'publish'
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
  INSERT INTO published_counts SELECT 'term', NEW.term_id, p.language, 1, p.updated_at
  FROM posts p WHERE p.id = NEW.post_id AND p.status = 'publish'
  ON CONFLICT DO UPDATE SET posts = posts + excluded.posts, updated_at = max(updated_at, excluded.updated_at);
END;

CREATE TRIGGER terms_counted_delete AFTER DELETE ON terms
BEGIN
  DELETE FROM published_counts WHERE kind = 'term' AND id = OLD.id;
END;

CREATE TRIGGER people_counted_delete AFTER DELETE ON people
BEGIN
  DELETE FROM published_counts WHERE kind = 'person' AND id = OLD.id;
END;
