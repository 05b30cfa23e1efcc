import { z } from "zod";
import { LANGUAGES } from "#app/content/languages.ts";
import { RESERVED_SLUGS } from "#app/content/slugs.ts";
import { POST_STATUSES } from "#app/data/store.ts";

const slugSchema = z
  .string()
  .transform((slug) => slug.normalize("NFC").trim())
  .pipe(
    z
      .string()
      .min(1, "slug is empty")
      .max(200, "slug is longer than 200 characters")
      .refine((slug) => !/[/?#\s%]/u.test(slug), "slug may not contain /, ?, #, % or spaces")
      .refine((slug) => !RESERVED_SLUGS.has(slug), "slug is reserved by a route"),
  );

export const PostRecordSchema = z.object({
  idNum: z.number().int().nonnegative(),
  language: z.enum(LANGUAGES),
  status: z.enum(POST_STATUSES),
  postTime: z.number().int(),
  title: z.string().min(1),
  slug: slugSchema,
  featureImageUrl: z.string(),
  content: z.string(),
  excerpt: z.string().default(""),
  tags: z.array(z.string().min(1)).default([]),
  categories: z.array(z.string().min(1)).default([]),
});
export type PostRecord = z.infer<typeof PostRecordSchema>;

export const PageRecordSchema = z.object({
  slug: slugSchema,
  title: z.string().min(1),
  content: z.string(),
});
export type PageRecord = z.infer<typeof PageRecordSchema>;

export const ContentFileSchema = z.object({
  posts: z.array(PostRecordSchema),
  pages: z.array(PageRecordSchema).default([]),
});
export type ContentFile = z.infer<typeof ContentFileSchema>;
