-- The website record (SPEC §3) counts published posts only (issue 26; decision
-- 003): the home gallery draws idNums in [0, max], so a draft at idNum
-- 999999999999 made nearly every draw miss and the gallery empty. Each max is
-- one seek on a partial index of the published posts.
CREATE INDEX posts_language_published_id_num ON posts (language, id_num) WHERE status = 'publish';

DROP VIEW website;
CREATE VIEW website AS
SELECT
  (SELECT coalesce(max(id_num), 0) FROM posts WHERE language = 'english' AND status = 'publish') AS max_id_eng,
  (SELECT coalesce(max(id_num), 0) FROM posts WHERE language = 'hindi' AND status = 'publish') AS max_id_hin,
  (SELECT coalesce(max(id_num), 0) FROM posts WHERE language = 'marathi' AND status = 'publish') AS max_id_mr;
