-- The links a statement added or removed (a transition table: a batch's few
-- thousand rows) are counted by looking each link's post up by its key
-- (decision 081, 082). The join of 20261207000000_published_counts.sql left
-- the plan to the planner, which inside an import's one transaction plans
-- with the statistics of the database before it: into an empty database it
-- hashed every published post for each batch (70 ms a batch at 100,000
-- posts, a fifth of the import's time in the database), and with hash joins
-- turned off it looped over the posts for every link (20 s a batch). Here the
-- link is the outer side whatever the estimates say (a LATERAL subquery the
-- planner may not flatten: OFFSET 0), and the post is found through an index
-- (sequential scans off for this function only): a key lookup per link, at
-- any size of posts and of the statement.
CREATE OR REPLACE FUNCTION sukti_count_links() RETURNS trigger
LANGUAGE plpgsql
SET enable_seqscan = off
AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    EXECUTE $sql$
    INSERT INTO published_counts AS c (kind, id, language, posts, updated_at)
    SELECT 'term', u.term_id, p.language, -count(*), sukti_now()
    FROM unlinked u CROSS JOIN LATERAL (
      SELECT language FROM posts
      WHERE id = u.post_id AND status = 'publish' AND EXISTS (SELECT 1 FROM terms t WHERE t.id = u.term_id)
      OFFSET 0
    ) p
    GROUP BY u.term_id, p.language
    ON CONFLICT (kind, id, language) DO UPDATE
      SET posts = c.posts + excluded.posts, updated_at = greatest(c.updated_at, excluded.updated_at)
    $sql$;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    EXECUTE $sql$
    INSERT INTO published_counts AS c (kind, id, language, posts, updated_at)
    SELECT 'term', l.term_id, p.language, count(*), max(p.updated_at)
    FROM linked l CROSS JOIN LATERAL (
      SELECT language, updated_at FROM posts WHERE id = l.post_id AND status = 'publish' OFFSET 0
    ) p
    GROUP BY l.term_id, p.language
    ON CONFLICT (kind, id, language) DO UPDATE
      SET posts = c.posts + excluded.posts, updated_at = greatest(c.updated_at, excluded.updated_at)
    $sql$;
  END IF;
  RETURN NULL;
END;
$$;
