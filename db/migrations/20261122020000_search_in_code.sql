-- The search index is kept by our code at write time (decision 035,
-- app/data/sqlite/write-target.server.ts), no longer by triggers calling
-- functions only our process registers (sukti_fold, sukti_plain, sukti_words,
-- sukti_skeletons): a plain sqlite3 shell can now update and delete posts.
-- The index the previous migration built stays as it is: it is correct, and
-- the folding is unchanged.
DROP TRIGGER IF EXISTS search_posts_ai;
DROP TRIGGER IF EXISTS search_posts_au;
DROP TRIGGER IF EXISTS search_posts_ad;
DROP TRIGGER IF EXISTS search_post_terms_ai;
DROP TRIGGER IF EXISTS search_post_terms_ad;
DROP TRIGGER IF EXISTS search_terms_ai;
DROP TRIGGER IF EXISTS search_terms_au;
DROP TRIGGER IF EXISTS search_words_ai;
DROP VIEW IF EXISTS search_source;

-- Pure SQL, for writes made outside our code (a shell): a post that leaves
-- "publish" or is deleted leaves the index at once. Our writer removes the
-- row too (a second delete of a missing row is a no-op). A post published
-- outside our code is not indexed until a re-import or rebuildSearchIndex:
-- folding needs our code. search_words_ad (pure SQL) stays: it keeps the
-- trigram index in step with the vocabulary.
CREATE TRIGGER search_posts_unpublished AFTER UPDATE OF status ON posts
WHEN old.status = 'publish' AND new.status IS NOT 'publish'
BEGIN
  DELETE FROM search_index WHERE rowid = old.id;
END;

CREATE TRIGGER search_posts_deleted AFTER DELETE ON posts WHEN old.status = 'publish' BEGIN
  DELETE FROM search_index WHERE rowid = old.id;
END;
