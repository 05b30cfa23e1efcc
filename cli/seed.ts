import { postKey } from "#app/data/content-writer.ts";
import { demoContentPath, readDemoContent } from "#app/data/demo.server.ts";
import type { ContentWrites } from "#app/data/writes.ts";
import { UserError } from "#cli/errors.ts";
import { type ImportReport, importFile, openWrites } from "#cli/import.ts";
import type { Progress } from "#cli/progress.ts";

/** Posts and pages in the database that are not part of the demo dataset. */
export async function countOtherContent(writes: ContentWrites): Promise<{ posts: number; pages: number }> {
  const demo = readDemoContent();
  const demoPosts = new Set(demo.posts.map((post) => postKey(post.language, post.slug)));
  const demoPages = new Set(demo.pages.map((page) => page.slug));
  let posts = 0;
  for await (const row of writes.postKeys()) {
    if (!demoPosts.has(postKey(row.language, row.slug))) posts++;
  }
  const pages = (await writes.pageSlugs()).filter((slug) => !demoPages.has(slug)).length;
  return { posts, pages };
}

/**
 * `sukti seed`: loads the demo dataset through the importer (so it is
 * validated like any file). Refuses a database holding other content unless
 * forced; even then it only adds and refreshes demo records, never deletes.
 */
export async function seed(options: {
  databaseUrl: string;
  force?: boolean;
  progress?: Progress;
}): Promise<ImportReport> {
  if (!options.force) {
    const writes = await openWrites(options.databaseUrl, false);
    try {
      const other = await countOtherContent(writes);
      if (other.posts > 0 || other.pages > 0) {
        throw new UserError(
          `the database ${writes.description} already holds ${other.posts} posts and ${other.pages} pages that are not demo content; pass --force to add the demo content to it anyway`,
        );
      }
    } finally {
      await writes.close();
    }
  }
  return importFile({
    file: demoContentPath(),
    format: "json",
    databaseUrl: options.databaseUrl,
    progress: options.progress,
  });
}
