-- Translations, sources and people (issue 15; docs/decisions/039-…).
--
-- A translation group is an opaque key (Hugo's translationKey) shared by posts
-- that are translations of each other: at most one post per language in a
-- group. A post without one is alone.
-- A post's source: who said or wrote it (a person, who has a page) and where
-- (a work and a reference in it, as text); each optional.

-- A person's names, one per language ('' where none was given), and the slug
-- of their page (/people/{slug}).
CREATE TABLE people (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE CHECK (slug <> ''),
  name_english TEXT NOT NULL DEFAULT '',
  name_hindi TEXT NOT NULL DEFAULT '',
  name_marathi TEXT NOT NULL DEFAULT ''
);

-- Every name a person was given, as app/content/people.ts's personKey folds
-- it: the same name in any script is the same person.
CREATE TABLE person_keys (
  key TEXT PRIMARY KEY,
  person_id INTEGER NOT NULL REFERENCES people (id) ON DELETE CASCADE
) WITHOUT ROWID;

ALTER TABLE posts ADD COLUMN translation_key TEXT CHECK (translation_key <> '');
ALTER TABLE posts ADD COLUMN person_id INTEGER REFERENCES people (id);
ALTER TABLE posts ADD COLUMN work TEXT NOT NULL DEFAULT '';
ALTER TABLE posts ADD COLUMN reference TEXT NOT NULL DEFAULT '';

-- At most one post per language in a group (of any status); serves a post's translations.
CREATE UNIQUE INDEX posts_translation ON posts (translation_key, language) WHERE translation_key IS NOT NULL;
-- Serves /people/{slug}, newest first, and the people's counts.
CREATE INDEX posts_person_published_time ON posts (person_id, post_time DESC, id DESC)
  WHERE status = 'publish' AND person_id IS NOT NULL;
