-- The website record counts published posts only: the same index and view as
-- db/migrations/20261126000000_website_counts_published.sql (issue 26; decision 003).
CREATE INDEX posts_language_published_id_num ON posts (language, id_num) WHERE status = 'publish';

CREATE OR REPLACE VIEW website AS
SELECT
  (SELECT coalesce(max(id_num), 0) FROM posts WHERE language = 'english' AND status = 'publish') AS max_id_eng,
  (SELECT coalesce(max(id_num), 0) FROM posts WHERE language = 'hindi' AND status = 'publish') AS max_id_hin,
  (SELECT coalesce(max(id_num), 0) FROM posts WHERE language = 'marathi' AND status = 'publish') AS max_id_mr;
