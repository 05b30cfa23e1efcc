-- What each write changed, as cache tags (decision 057): servers read the
-- rows past the last one they saw (woken by NOTIFY sukti_content) and drop or
-- refresh only the pages showing those tags. Written by sukti's writers in
-- the write's own transaction; `removal` rows (an unpublish, a delete, a post
-- leaving a list) drop pages at once, the others are refreshed in the
-- background. Old rows are pruned.
CREATE TABLE content_changes (
  seq bigserial PRIMARY KEY,
  tags text NOT NULL,
  removal boolean NOT NULL DEFAULT false,
  at bigint NOT NULL DEFAULT extract(epoch FROM clock_timestamp())::bigint
);
