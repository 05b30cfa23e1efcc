import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { databasePath } from "#app/data/db.server.ts";
import { demoContentPath, readDemoContent } from "#app/data/demo.server.ts";
import { postKey } from "#app/data/write.server.ts";
import { UserError } from "#cli/errors.ts";
import { type ImportReport, importFile } from "#cli/import.ts";
import type { Progress } from "#cli/progress.ts";

/** Posts and pages in the database that are not part of the demo dataset. */
export function countOtherContent(databaseUrl: string): { posts: number; pages: number } {
  const file = databasePath(databaseUrl);
  if (file === ":memory:" || !existsSync(file)) return { posts: 0, pages: 0 };
  const demo = readDemoContent();
  const demoPosts = new Set(demo.posts.map((post) => postKey(post.language, post.slug)));
  const demoPages = new Set(demo.pages.map((page) => page.slug));
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
      .pluck()
      .all() as string[];
    if (!tables.includes("posts") || !tables.includes("pages")) return { posts: 0, pages: 0 };
    let posts = 0;
    for (const row of db.prepare("SELECT language, slug FROM posts").iterate() as Iterable<{
      language: "english" | "hindi" | "marathi";
      slug: string;
    }>) {
      if (!demoPosts.has(postKey(row.language, row.slug))) posts++;
    }
    let pages = 0;
    for (const slug of db.prepare("SELECT slug FROM pages").pluck().iterate() as Iterable<string>) {
      if (!demoPages.has(slug)) pages++;
    }
    return { posts, pages };
  } finally {
    db.close();
  }
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
  const other = countOtherContent(options.databaseUrl);
  if (!options.force && (other.posts > 0 || other.pages > 0)) {
    throw new UserError(
      `the database ${databasePath(options.databaseUrl)} already holds ${other.posts} posts and ${other.pages} pages that are not demo content; pass --force to add the demo content to it anyway`,
    );
  }
  return importFile({
    file: demoContentPath(),
    format: "json",
    databaseUrl: options.databaseUrl,
    progress: options.progress,
  });
}
