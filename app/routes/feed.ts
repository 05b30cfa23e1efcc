import { FEED_ITEMS, feedResponse, notFoundResponse } from "#app/content/feeds.ts";
import { isLanguage, LANG_TAG, LANGUAGE_LABEL } from "#app/content/languages.ts";
import { LANGUAGE_HOME_DESCRIPTION } from "#app/content/seo.ts";
import { fileCacheContext, originContext, storeContext } from "#app/context.ts";
import { DEFAULT_AUDIO_DIR, localAudioSize } from "#app/data/audio-files.server.ts";
import { currentSite } from "#app/site.ts";
import type { Route } from "./+types/feed";

/** /english/feed.xml, /hindi/feed.xml, /marathi/feed.xml: RSS 2.0, the newest 50 published posts. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const language = new URL(request.url).pathname.split("/")[1];
  if (!isLanguage(language)) throw notFoundResponse();
  const origin = context.get(originContext);
  const posts = await context.get(storeContext).listFeedPosts({ language }, FEED_ITEMS);
  return feedResponse(
    origin,
    posts,
    {
      title: `${currentSite().name} · ${LANGUAGE_LABEL[language]}`,
      link: `${origin}/${language}/home`,
      self: `${origin}/${language}/feed.xml`,
      description: LANGUAGE_HOME_DESCRIPTION[language],
      language: LANG_TAG[language],
    },
    (url) => localAudioSize(url, context.get(fileCacheContext).audio ?? DEFAULT_AUDIO_DIR),
  );
}
