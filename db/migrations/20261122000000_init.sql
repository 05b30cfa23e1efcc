-- Posts of the three languages (SPEC §3). idNum and slug are unique per language.
CREATE TABLE posts (
  id INTEGER PRIMARY KEY,
  language TEXT NOT NULL CHECK (language IN ('english', 'hindi', 'marathi')),
  id_num INTEGER NOT NULL CHECK (id_num >= 0),
  status TEXT NOT NULL CHECK (status IN ('publish', 'draft', 'pending', 'private', 'future', 'trash')),
  post_time INTEGER NOT NULL,
  title TEXT NOT NULL,
  slug TEXT NOT NULL CHECK (slug <> ''),
  feature_image_url TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL DEFAULT '',
  excerpt TEXT NOT NULL DEFAULT '',
  updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

-- Serves the gallery (language = ? AND id_num IN (...)) and maxId per language.
CREATE UNIQUE INDEX posts_language_id_num ON posts (language, id_num);
-- Serves post pages (language = ? AND slug = ?).
CREATE UNIQUE INDEX posts_language_slug ON posts (language, slug);
-- Serves /post/{slug}: a published post of any language.
CREATE INDEX posts_slug ON posts (slug);
-- Serves the hero (newest published post of any language) and feeds.
CREATE INDEX posts_published_time ON posts (post_time DESC, id DESC) WHERE status = 'publish';
-- Serves the language homes, newest first, keyset-paginated.
CREATE INDEX posts_language_published_time ON posts (language, post_time DESC, id DESC) WHERE status = 'publish';

-- Tags and categories (kind), shared by all languages, addressed by slug.
CREATE TABLE terms (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('tag', 'category')),
  name TEXT NOT NULL,
  slug TEXT NOT NULL CHECK (slug <> ''),
  UNIQUE (kind, slug)
);

CREATE TABLE post_terms (
  post_id INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  term_id INTEGER NOT NULL REFERENCES terms (id) ON DELETE CASCADE,
  PRIMARY KEY (post_id, term_id)
) WITHOUT ROWID;

CREATE INDEX post_terms_term ON post_terms (term_id, post_id);

-- Site pages: privacy policy, terms and conditions.
CREATE TABLE pages (
  slug TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  content TEXT NOT NULL
);

-- The website record (SPEC §3), derived so it is true whatever changes the
-- posts: each max is one seek on posts_language_id_num.
CREATE VIEW website AS
SELECT
  (SELECT coalesce(max(id_num), 0) FROM posts WHERE language = 'english') AS max_id_eng,
  (SELECT coalesce(max(id_num), 0) FROM posts WHERE language = 'hindi') AS max_id_hin,
  (SELECT coalesce(max(id_num), 0) FROM posts WHERE language = 'marathi') AS max_id_mr;
