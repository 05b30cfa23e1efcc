-- A post that leaves 'publish' leaves the search index at once, whoever
-- changes it (psql included): search results and their counts never include
-- it. (A deleted post's document goes with it: ON DELETE CASCADE.) Plain
-- PL/pgSQL kept in the database: any client's write fires it. Publishing in
-- SQL does not index the post (folding needs our code): import it, or re-run
-- the import, for that.
CREATE FUNCTION sukti_unindex_unpublished() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE post_id = NEW.id;
  RETURN NULL;
END;
$$;

CREATE TRIGGER posts_unpublished_leave_search
AFTER UPDATE OF status ON posts
FOR EACH ROW
WHEN (OLD.status = 'publish' AND NEW.status <> 'publish')
EXECUTE FUNCTION sukti_unindex_unpublished();
