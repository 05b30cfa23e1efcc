-- Whether a post is published, by its id, from a small index: the same index
-- as db/migrations/20261208000000_posts_published_id.sql (related posts'
-- candidates check each one's status).
CREATE INDEX posts_published_id ON posts (id) WHERE status = 'publish';
