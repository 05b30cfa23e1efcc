// GET /oembed?url=…&format=json (oEmbed 1.0, decision 063): a
// published post's address, as the site writes it (/{language}/{slug},
// /post/{slug}, a trailing slash or not) on the site's own host, answered
// with a `rich` embed: the <iframe> of its embed page. Any other address, a
// draft or an unpublished post is 404; a format other than json 501; a
// missing or malformed address or size 400. Errors are JSON too. Kept in the
// page cache under its parameters (server/canonical-url.ts), with the post's
// tags, like the embed page.
import { EMBED_WIDTH, embedHeight, embedPath, embedQuote, embedSnippet } from "#app/content/embed.ts";
import { isLanguage } from "#app/content/languages.ts";
import type { Post } from "#app/content/model.ts";
import { personName, personPath } from "#app/content/people.ts";
import { toSourceView } from "#app/content/post-source.ts";
import { originContext, storeContext } from "#app/context.ts";
import type { ContentStore } from "#app/data/store.ts";
import { currentSite } from "#app/site.ts";
import type { Route } from "./+types/oembed";

/** How long a consumer may keep an answer: the snippet only frames the embed page, which stays current itself. */
export const OEMBED_CACHE_AGE = 86_400;
const SIZE = /^[1-9][0-9]{0,4}$/;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Access-Control-Allow-Origin": "*" },
  });
}
const fail = (status: number, error: string) => json(status, { error });

/** The published post a site address names, or null. */
async function postAt(store: ContentStore, pathname: string): Promise<Post | null> {
  const segments = pathname.replace(/\/$/, "").split("/");
  if (segments.length !== 3 || segments[0] !== "") return null;
  const [, first = "", encoded = ""] = segments;
  let slug: string;
  try {
    slug = decodeURIComponent(encoded).normalize("NFC");
  } catch {
    return null;
  }
  if (slug === "") return null;
  if (isLanguage(first)) return slug === "home" ? null : store.getPost(first, slug);
  if (first !== "post") return null;
  // /post/{slug} shows a site page when one has that slug.
  if (await store.getPage(slug)) return null;
  return store.getPostAnyLanguage(slug);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const format = params.get("format");
  if (format !== null && format !== "json") return fail(501, "only format=json is supported");
  const url = params.get("url");
  if (!url) return fail(400, "url is required");
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return fail(400, "url is not an absolute address");
  }
  if (target.protocol !== "http:" && target.protocol !== "https:")
    return fail(400, "url is not an http(s) address");
  const sizes: Record<"maxwidth" | "maxheight", number | null> = { maxwidth: null, maxheight: null };
  for (const name of ["maxwidth", "maxheight"] as const) {
    const value = params.get(name);
    if (value === null) continue;
    if (!SIZE.test(value)) return fail(400, `${name} must be a positive whole number of pixels`);
    sizes[name] = Number(value);
  }
  const origin = context.get(originContext);
  // The site's own host (PUBLIC_URL's, else the request's); http or https alike.
  if (target.host !== new URL(origin).host) return fail(404, "no embeddable quote at that address");
  const post = await postAt(context.get(storeContext), target.pathname);
  if (!post) return fail(404, "no embeddable quote at that address");

  const source = toSourceView(post.source, post.language);
  const width = Math.min(EMBED_WIDTH, sizes.maxwidth ?? EMBED_WIDTH);
  const natural = embedHeight(embedQuote({ title: post.title, content: post.content, source }), width);
  const height = Math.min(natural, sizes.maxheight ?? natural);
  const site = currentSite();
  const person = post.source?.person;
  return json(200, {
    type: "rich",
    version: "1.0",
    title: post.title,
    ...(person
      ? {
          author_name: personName(person.names, post.language),
          author_url: `${origin}${personPath(person.slug)}`,
        }
      : {}),
    provider_name: site.name,
    provider_url: `${origin}/`,
    cache_age: OEMBED_CACHE_AGE,
    html: embedSnippet(`${origin}${embedPath(post.language, post.slug)}`, post.title, width, height),
    width,
    height,
  });
}
