-- Search (issue 4; docs/search.md, docs/decisions/020-search-index.md).
--
-- search_index holds the folded text (sukti_fold) of every published post and
-- nothing else: a draft never reaches it. It stores no copy of the text
-- (contentless); rows are keyed by posts.id. Folded text is words of letters,
-- marks and digits separated by single spaces, so the tokenizer splits on
-- spaces only; Devanagari vowel signs stay inside their words.
CREATE VIRTUAL TABLE search_index USING fts5(
  title, tags, body,
  content = '',
  contentless_delete = 1,
  detail = column,
  tokenize = "unicode61 remove_diacritics 0 categories 'L* M* N* P* S* C*'"
);

-- The folded words of the published posts and of all tag and category names.
-- A query word is looked up here by prefix (all scripts), by infix (trigram,
-- Devanagari) and by romanisation skeleton (Devanagari), and the words found
-- join the query as whole words: FTS5 iterates those lazily, where a prefix
-- query would first merge every matching doclist.
CREATE TABLE search_words (
  id INTEGER PRIMARY KEY,
  word TEXT NOT NULL UNIQUE
);

CREATE VIRTUAL TABLE search_words_trigram USING fts5(
  word,
  content = 'search_words',
  content_rowid = 'id',
  tokenize = 'trigram case_sensitive 1'
);

CREATE TABLE search_skeletons (
  skeleton TEXT NOT NULL,
  word_id INTEGER NOT NULL REFERENCES search_words (id) ON DELETE CASCADE,
  PRIMARY KEY (skeleton, word_id)
) WITHOUT ROWID;

-- Devanagari words only (U+0900–U+097F): infix and skeletons are for them.
CREATE TRIGGER search_words_ai AFTER INSERT ON search_words WHEN new.word GLOB '*[ऀ-ॿ]*' BEGIN
  INSERT INTO search_words_trigram (rowid, word) VALUES (new.id, new.word);
  INSERT OR IGNORE INTO search_skeletons (skeleton, word_id)
    SELECT value, new.id FROM json_each(sukti_skeletons(new.word));
END;

CREATE TRIGGER search_words_ad AFTER DELETE ON search_words WHEN old.word GLOB '*[ऀ-ॿ]*' BEGIN
  INSERT INTO search_words_trigram (search_words_trigram, rowid, word) VALUES ('delete', old.id, old.word);
END;

-- What search_index holds for each published post.
CREATE VIEW search_source AS
SELECT
  p.id,
  sukti_fold(p.title) AS title,
  sukti_fold(coalesce(
    (SELECT group_concat(t.name, ' ') FROM post_terms pt JOIN terms t ON t.id = pt.term_id WHERE pt.post_id = p.id),
    ''
  )) AS tags,
  sukti_fold(sukti_plain(p.content) || ' ' || p.excerpt) AS body
FROM posts p
WHERE p.status = 'publish';

-- The index follows every write, whoever makes it. Invariant: a row exists in
-- search_index exactly when the post with that id is published.
CREATE TRIGGER search_posts_ai AFTER INSERT ON posts WHEN new.status = 'publish' BEGIN
  INSERT INTO search_index (rowid, title, tags, body)
    SELECT id, title, tags, body FROM search_source WHERE id = new.id;
  INSERT OR IGNORE INTO search_words (word)
    SELECT w.value FROM search_source s, json_each(sukti_words(s.title || ' ' || s.body)) w
    WHERE s.id = new.id;
END;

CREATE TRIGGER search_posts_au AFTER UPDATE OF status, title, content, excerpt ON posts
WHEN old.status IS NOT new.status OR old.title IS NOT new.title
  OR old.content IS NOT new.content OR old.excerpt IS NOT new.excerpt
BEGIN
  DELETE FROM search_index WHERE rowid = old.id AND old.status = 'publish';
  INSERT INTO search_index (rowid, title, tags, body)
    SELECT id, title, tags, body FROM search_source WHERE id = new.id;
  INSERT OR IGNORE INTO search_words (word)
    SELECT w.value FROM search_source s, json_each(sukti_words(s.title || ' ' || s.body)) w
    WHERE s.id = new.id;
END;

CREATE TRIGGER search_posts_ad AFTER DELETE ON posts WHEN old.status = 'publish' BEGIN
  DELETE FROM search_index WHERE rowid = old.id;
END;

-- Tags and categories: the post's row is written again with its new terms.
CREATE TRIGGER search_post_terms_ai AFTER INSERT ON post_terms
WHEN (SELECT status FROM posts WHERE id = new.post_id) = 'publish'
BEGIN
  DELETE FROM search_index WHERE rowid = new.post_id;
  INSERT INTO search_index (rowid, title, tags, body)
    SELECT id, title, tags, body FROM search_source WHERE id = new.post_id;
END;

CREATE TRIGGER search_post_terms_ad AFTER DELETE ON post_terms
WHEN (SELECT status FROM posts WHERE id = old.post_id) = 'publish'
BEGIN
  DELETE FROM search_index WHERE rowid = old.post_id;
  INSERT INTO search_index (rowid, title, tags, body)
    SELECT id, title, tags, body FROM search_source WHERE id = old.post_id;
END;

CREATE TRIGGER search_terms_ai AFTER INSERT ON terms BEGIN
  INSERT OR IGNORE INTO search_words (word)
    SELECT value FROM json_each(sukti_words(sukti_fold(new.name)));
END;

CREATE TRIGGER search_terms_au AFTER UPDATE OF name ON terms WHEN old.name IS NOT new.name BEGIN
  INSERT OR IGNORE INTO search_words (word)
    SELECT value FROM json_each(sukti_words(sukti_fold(new.name)));
  DELETE FROM search_index WHERE rowid IN (
    SELECT pt.post_id FROM post_terms pt JOIN posts p ON p.id = pt.post_id
    WHERE pt.term_id = new.id AND p.status = 'publish'
  );
  INSERT INTO search_index (rowid, title, tags, body)
    SELECT id, title, tags, body FROM search_source
    WHERE id IN (SELECT post_id FROM post_terms WHERE term_id = new.id);
END;

-- Backfill: an existing database is indexed once, here.
INSERT OR IGNORE INTO search_words (word)
  SELECT w.value FROM terms t, json_each(sukti_words(sukti_fold(t.name))) w;
-- Each post is folded once, into a temporary table, then indexed from there.
CREATE TEMP TABLE search_backfill AS SELECT id, title, tags, body FROM search_source;
INSERT INTO search_index (rowid, title, tags, body) SELECT id, title, tags, body FROM search_backfill;
INSERT OR IGNORE INTO search_words (word)
  SELECT w.value FROM search_backfill s, json_each(sukti_words(s.title || ' ' || s.body)) w;
DROP TABLE search_backfill;
