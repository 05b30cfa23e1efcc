-- Each search document holds its post's language as a lexeme ('l:hindi',
-- LANGUAGE_MARKER in app/data/postgres/write-target.server.ts, which writes
-- it from now on): a search kept to one language asks the GIN index for its
-- matches and the language together (decision 101), where each match was
-- looked up in posts (100–300 ms for a common word in another language's
-- posts at 100,000 posts). Folded words hold no colon: no word of a text
-- can be one.
UPDATE search_documents d
SET document = d.document || array_to_tsvector(ARRAY['l:' || p.language])
FROM posts p
WHERE p.id = d.post_id;
