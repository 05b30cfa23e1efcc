-- search_index becomes an external-content FTS5 table over search_documents,
-- a plain table of the folded documents (decision 035, docs/search.md).
-- The contentless index it replaces was declared contentless_delete=1, which
-- SQLite 3.43+ understands and older shells do not: Debian 12's sqlite3
-- (3.40) could not change a post's status or delete a post, since the
-- removal triggers write to that index ('unrecognized option:
-- "contentless_delete"'). Everything in the schema now works with any SQLite
-- that has FTS5 (3.9+; the trigram tokenizer of search_words_trigram, 3.34+).
--
-- Invariant: search_documents holds a row exactly when the post with that id
-- is published, its folded title, tags and body, as our code computes them
-- (app/data/search-document.ts); search_index indexes exactly those rows.
-- Our code writes both (app/data/sqlite/write-target.server.ts). Removing a
-- row is FTS5's 'delete' command with the stored values, then the delete of
-- the document: what the two triggers below do for writes made outside our
-- code (a shell), with no function of ours.
DROP TRIGGER IF EXISTS search_posts_unpublished;
DROP TRIGGER IF EXISTS search_posts_deleted;
DROP TABLE IF EXISTS search_index;

CREATE TABLE search_documents (
  post_id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  tags TEXT NOT NULL,
  body TEXT NOT NULL
);

-- The folded documents of the published posts, folded here with the
-- functions migrate() registers while migrations run (the same folding as
-- app/data/search-document.ts; the order of the tag names does not matter to
-- a match). A post published outside our code is indexed from now on too.
INSERT INTO search_documents (post_id, title, tags, body)
SELECT
  p.id,
  sukti_fold(p.title),
  sukti_fold(coalesce(
    (SELECT group_concat(name, ' ') FROM (
      SELECT t.name FROM post_terms pt JOIN terms t ON t.id = pt.term_id
      WHERE pt.post_id = p.id ORDER BY pt.term_id
    )),
    ''
  )),
  sukti_fold(sukti_plain(p.content) || ' ' || p.excerpt)
FROM posts p
WHERE p.status = 'publish'
ORDER BY p.id;

-- Words of those documents and of the term names that the vocabulary lacks
-- (it has them all unless posts were published or terms renamed outside our
-- code), in order of first use; new Devanagari words get their trigrams and
-- skeletons, as the writer gives them.
CREATE TEMP TABLE search_words_before AS SELECT coalesce(max(id), 0) AS id FROM search_words;
INSERT OR IGNORE INTO search_words (word)
  SELECT w.value FROM terms t, json_each(sukti_words(sukti_fold(t.name))) w ORDER BY t.id, w.key;
INSERT OR IGNORE INTO search_words (word)
  SELECT w.value FROM search_documents d, json_each(sukti_words(d.title || ' ' || d.body)) w
  ORDER BY d.post_id, w.key;
INSERT INTO search_words_trigram (rowid, word)
  SELECT id, word FROM search_words
  WHERE id > (SELECT id FROM search_words_before) AND word GLOB '*[ऀ-ॿ]*' ORDER BY id;
INSERT OR IGNORE INTO search_skeletons (skeleton, word_id)
  SELECT s.value, w.id FROM search_words w, json_each(sukti_skeletons(w.word)) s
  WHERE w.id > (SELECT id FROM search_words_before) AND w.word GLOB '*[ऀ-ॿ]*';
DROP TABLE search_words_before;

-- The folded text is words of letters, marks and digits separated by single
-- spaces, so the tokenizer splits on spaces only (as before). Queries read
-- only the index (MATCH, rowid); the documents are read to remove a row and
-- by 'rebuild' and 'integrity-check'.
CREATE VIRTUAL TABLE search_index USING fts5(
  title, tags, body,
  content = 'search_documents',
  content_rowid = 'post_id',
  detail = column,
  tokenize = "unicode61 remove_diacritics 0 categories 'L* M* N* P* S* C*'"
);
INSERT INTO search_index (search_index) VALUES ('rebuild');

-- A post that leaves "publish" (or changes its id) or is deleted leaves the
-- index at once, whoever writes it. Our writer removes the document too (a
-- second removal finds no document and does nothing). A post published or
-- edited outside our code is not (re)indexed until a re-import or
-- rebuildSearchIndex: folding needs our code.
CREATE TRIGGER search_posts_unpublished AFTER UPDATE OF status, id ON posts
WHEN new.status IS NOT 'publish' OR new.id IS NOT old.id
BEGIN
  INSERT INTO search_index (search_index, rowid, title, tags, body)
    SELECT 'delete', post_id, title, tags, body FROM search_documents WHERE post_id = old.id;
  DELETE FROM search_documents WHERE post_id = old.id;
END;

CREATE TRIGGER search_posts_deleted AFTER DELETE ON posts BEGIN
  INSERT INTO search_index (search_index, rowid, title, tags, body)
    SELECT 'delete', post_id, title, tags, body FROM search_documents WHERE post_id = old.id;
  DELETE FROM search_documents WHERE post_id = old.id;
END;
