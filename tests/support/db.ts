import Database from "better-sqlite3";

/** A read-only look at a server's database, to state what a page must show. */
export function openReadonly(dbPath: string) {
  return new Database(dbPath, { readonly: true, fileMustExist: true });
}

export interface PostRow {
  language: "english" | "hindi" | "marathi";
  idNum: number;
  slug: string;
  title: string;
  status: string;
  postTime: number;
  featureImageUrl: string;
}

export const POST_COLUMNS =
  "language, id_num AS idNum, slug, title, status, post_time AS postTime, feature_image_url AS featureImageUrl";
