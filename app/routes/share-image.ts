import { redirect } from "react-router";
import { notFoundResponse } from "#app/content/feeds.ts";
import { isLanguage } from "#app/content/languages.ts";
import { toPostView } from "#app/content/post-view.ts";
import { fileCacheContext, storeContext } from "#app/context.ts";
import { getShareImage } from "#app/share-image/cache.server.ts";
import { shareImagePath, shareImageVersion } from "#app/share-image/content.ts";
import type { Route } from "./+types/share-image";

/**
 * /share/{language}/{version}/{slug}.jpg: the post's 1200×630 share image.
 * The version is a hash of what the image shows, so the address never serves
 * two different images and may be cached for a year; an old version redirects
 * to the current one. `?download` asks the browser to save it.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { language, version, file } = params;
  if (!isLanguage(language) || !file.endsWith(".jpg")) throw notFoundResponse();
  const post = await context.get(storeContext).getPost(language, file.slice(0, -".jpg".length));
  if (!post) throw notFoundResponse();
  const source = toPostView(post);
  const url = new URL(request.url);
  if (version !== shareImageVersion(source)) {
    throw redirect(`${shareImagePath(source)}${url.search}`, {
      status: 302,
      headers: { "Cache-Control": "public, max-age=300" },
    });
  }
  const jpeg = await getShareImage(
    { ...source, idNum: post.idNum },
    context.get(fileCacheContext).shareImages,
  );
  const filename = `${post.slug}.jpg`;
  const disposition = url.searchParams.has("download") ? "attachment" : "inline";
  return new Response(new Uint8Array(jpeg), {
    headers: {
      "Content-Type": "image/jpeg",
      "Content-Length": String(jpeg.length),
      "Cache-Control": "public, max-age=31536000, immutable",
      // filename= for old clients (ASCII only), filename*= for the real, possibly Devanagari, name.
      "Content-Disposition": `${disposition}; filename="${asciiName(post.idNum, language)}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    },
  });
}

function asciiName(idNum: number, language: string) {
  return `${language}-${idNum}.jpg`;
}
