-- A post may carry the teacher's own recording (issue 27 §5, decision 052): an
-- http(s) address or a path under the site's folder (/audio/x.mp3); '' is none.
ALTER TABLE posts ADD COLUMN audio_url TEXT NOT NULL DEFAULT '';
