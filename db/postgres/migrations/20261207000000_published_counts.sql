-- Published posts counted per term, per person and per language, kept by the
-- database itself: the same table as db/migrations/20261207000000_published_counts.sql
-- (decision 081), read the same way. SQLite's triggers add one post at a time;
-- here each statement's rows are added at once (statement triggers over
-- transition tables), so a batch of 1,000 imported posts and their terms is
-- two grouped upserts, not thousands. A post is deleted one at a time (BEFORE
-- each row, while its terms are still linked).

-- No write may land between the count below and the triggers that keep it
-- (a node of the previous version, or the command, writing during a rolling
-- deploy): the tables counted are locked against writes until this commits.
LOCK TABLE posts, post_terms, terms, people IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE published_counts (
  kind text NOT NULL CHECK (kind IN ('term', 'person', 'language')),
  id bigint NOT NULL,
  language text NOT NULL,
  posts integer NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (kind, id, language)
);

-- Every count made from the posts as they are: here once, and after a TRUNCATE (below).
CREATE FUNCTION sukti_count_published() RETURNS void
LANGUAGE sql AS $$
  DELETE FROM published_counts;
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
$$;
SELECT sukti_count_published();

-- Each function below builds its statement's changes as rows of
-- (kind, id, language, posts: +1 or -1, at) and adds them with one upsert,
-- grouped (an upsert may touch a row once). A post joining a list counts at
-- its updated_at; leaving it, at the time it left. The statements are run by
-- EXECUTE, planned each time: PL/pgSQL would keep the plan made at its first
-- run, when an import into an empty database finds posts empty (a nested
-- loop over a sequential scan of posts, seconds a batch at 50,000 posts).
CREATE FUNCTION sukti_now() RETURNS bigint LANGUAGE sql AS $$
  SELECT extract(epoch FROM clock_timestamp())::bigint
$$;

CREATE FUNCTION sukti_count_posts_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE $sql$
  INSERT INTO published_counts AS c (kind, id, language, posts, updated_at)
  SELECT kind, id, language, sum(posts)::integer, max(at) FROM (
    SELECT 'language' AS kind, 0::bigint AS id, language, 1 AS posts, updated_at AS at
      FROM added WHERE status = 'publish'
    UNION ALL
    SELECT 'person', person_id, language, 1, updated_at
      FROM added WHERE status = 'publish' AND person_id IS NOT NULL
  ) deltas GROUP BY kind, id, language
  ON CONFLICT (kind, id, language) DO UPDATE
    SET posts = c.posts + excluded.posts, updated_at = greatest(c.updated_at, excluded.updated_at)
  $sql$;
  RETURN NULL;
END;
$$;

CREATE FUNCTION sukti_count_posts_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE $sql$
  WITH changed AS (
    SELECT o.id, o.status = 'publish' AS went, o.language AS old_language, o.person_id AS old_person,
      n.status = 'publish' AS comes, n.language AS new_language, n.person_id AS new_person, n.updated_at AS new_time
    FROM old_posts o JOIN new_posts n ON n.id = o.id
    WHERE (o.status = 'publish' OR n.status = 'publish')
      AND (o.status, o.language, o.person_id, o.updated_at)
        IS DISTINCT FROM (n.status, n.language, n.person_id, n.updated_at)
  ), deltas AS (
    SELECT 'language' AS kind, 0::bigint AS id, old_language AS language, -1 AS posts, sukti_now() AS at
      FROM changed WHERE went
    UNION ALL
    SELECT 'person', old_person, old_language, -1, sukti_now() FROM changed WHERE went AND old_person IS NOT NULL
    UNION ALL
    SELECT 'term', pt.term_id, old_language, -1, sukti_now()
      FROM changed JOIN post_terms pt ON pt.post_id = changed.id WHERE went
    UNION ALL
    SELECT 'language', 0, new_language, 1, new_time FROM changed WHERE comes
    UNION ALL
    SELECT 'person', new_person, new_language, 1, new_time FROM changed WHERE comes AND new_person IS NOT NULL
    UNION ALL
    SELECT 'term', pt.term_id, new_language, 1, new_time
      FROM changed JOIN post_terms pt ON pt.post_id = changed.id WHERE comes
  )
  INSERT INTO published_counts AS c (kind, id, language, posts, updated_at)
  SELECT kind, id, language, sum(posts)::integer, max(at) FROM deltas GROUP BY kind, id, language
  ON CONFLICT (kind, id, language) DO UPDATE
    SET posts = c.posts + excluded.posts, updated_at = greatest(c.updated_at, excluded.updated_at)
  $sql$;
  RETURN NULL;
END;
$$;

CREATE FUNCTION sukti_count_post_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO published_counts AS c (kind, id, language, posts, updated_at)
  SELECT kind, id, OLD.language, -1, sukti_now() FROM (
    SELECT 'language' AS kind, 0::bigint AS id
    UNION ALL
    SELECT 'person', OLD.person_id WHERE OLD.person_id IS NOT NULL
    UNION ALL
    SELECT 'term', term_id FROM post_terms WHERE post_id = OLD.id
  ) lists
  ON CONFLICT (kind, id, language) DO UPDATE
    SET posts = c.posts + excluded.posts, updated_at = greatest(c.updated_at, excluded.updated_at);
  RETURN OLD;
END;
$$;

-- Terms unlinked from published posts (DELETE, and an UPDATE's old rows),
-- then linked to them (INSERT, and an UPDATE's new rows). A deleted post's
-- links go after it and find no post to count; a deleted term's, no term.
CREATE FUNCTION sukti_count_links() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    EXECUTE $sql$
    INSERT INTO published_counts AS c (kind, id, language, posts, updated_at)
    SELECT 'term', u.term_id, p.language, -count(*), sukti_now()
    FROM unlinked u JOIN posts p ON p.id = u.post_id AND p.status = 'publish'
    JOIN terms t ON t.id = u.term_id
    GROUP BY u.term_id, p.language
    ON CONFLICT (kind, id, language) DO UPDATE
      SET posts = c.posts + excluded.posts, updated_at = greatest(c.updated_at, excluded.updated_at)
    $sql$;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    EXECUTE $sql$
    INSERT INTO published_counts AS c (kind, id, language, posts, updated_at)
    SELECT 'term', l.term_id, p.language, count(*), max(p.updated_at)
    FROM linked l JOIN posts p ON p.id = l.post_id AND p.status = 'publish'
    GROUP BY l.term_id, p.language
    ON CONFLICT (kind, id, language) DO UPDATE
      SET posts = c.posts + excluded.posts, updated_at = greatest(c.updated_at, excluded.updated_at)
    $sql$;
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION sukti_uncount_term() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM published_counts WHERE kind = 'term' AND id = OLD.id;
  RETURN NULL;
END;
$$;

CREATE FUNCTION sukti_uncount_person() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM published_counts WHERE kind = 'person' AND id = OLD.id;
  RETURN NULL;
END;
$$;

CREATE TRIGGER posts_counted_insert AFTER INSERT ON posts
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION sukti_count_posts_inserted();
CREATE TRIGGER posts_counted_update AFTER UPDATE ON posts
REFERENCING OLD TABLE AS old_posts NEW TABLE AS new_posts FOR EACH STATEMENT EXECUTE FUNCTION sukti_count_posts_updated();
CREATE TRIGGER posts_counted_delete BEFORE DELETE ON posts
FOR EACH ROW WHEN (OLD.status = 'publish') EXECUTE FUNCTION sukti_count_post_deleted();
CREATE TRIGGER post_terms_counted_insert AFTER INSERT ON post_terms
REFERENCING NEW TABLE AS linked FOR EACH STATEMENT EXECUTE FUNCTION sukti_count_links();
CREATE TRIGGER post_terms_counted_delete AFTER DELETE ON post_terms
REFERENCING OLD TABLE AS unlinked FOR EACH STATEMENT EXECUTE FUNCTION sukti_count_links();
CREATE TRIGGER post_terms_counted_update AFTER UPDATE ON post_terms
REFERENCING OLD TABLE AS unlinked NEW TABLE AS linked FOR EACH STATEMENT EXECUTE FUNCTION sukti_count_links();
CREATE TRIGGER terms_counted_delete AFTER DELETE ON terms
FOR EACH ROW EXECUTE FUNCTION sukti_uncount_term();
CREATE TRIGGER people_counted_delete AFTER DELETE ON people
FOR EACH ROW EXECUTE FUNCTION sukti_uncount_person();

-- TRUNCATE fires no row or statement trigger above: whatever is truncated,
-- the counts are made again from what is left.
CREATE FUNCTION sukti_recount_published() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sukti_count_published();
  RETURN NULL;
END;
$$;

CREATE TRIGGER posts_counted_truncate AFTER TRUNCATE ON posts
FOR EACH STATEMENT EXECUTE FUNCTION sukti_recount_published();
CREATE TRIGGER post_terms_counted_truncate AFTER TRUNCATE ON post_terms
FOR EACH STATEMENT EXECUTE FUNCTION sukti_recount_published();
CREATE TRIGGER terms_counted_truncate AFTER TRUNCATE ON terms
FOR EACH STATEMENT EXECUTE FUNCTION sukti_recount_published();
CREATE TRIGGER people_counted_truncate AFTER TRUNCATE ON people
FOR EACH STATEMENT EXECUTE FUNCTION sukti_recount_published();
