import { FEED_ITEMS, feedResponse, notFoundResponse } from "#app/content/feeds.ts";
import { quoteCount } from "#app/content/labels.ts";
import { personName, personPath } from "#app/content/people.ts";
import { readingLabelsFor } from "#app/content/reading-labels.ts";
import { fileCacheContext, originContext, storeContext } from "#app/context.ts";
import { DEFAULT_AUDIO_DIR, localAudioSize } from "#app/data/audio-files.server.ts";
import { currentSite } from "#app/site.ts";
import type { Route } from "./+types/person-feed";

/** /people/{slug}/feed.xml: RSS 2.0, the person's newest 50 published posts in every language. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const store = context.get(storeContext);
  const person = await store.getPerson(params.slug);
  if (!person) throw notFoundResponse();
  const origin = context.get(originContext);
  const posts = await store.listFeedPosts({ person: person.slug }, FEED_ITEMS);
  const name = personName(person.names, "english");
  const labels = readingLabelsFor("english");
  return feedResponse(
    origin,
    posts,
    {
      title: `${currentSite().name} · ${name}`,
      link: `${origin}${personPath(person.slug)}`,
      self: `${origin}${personPath(person.slug)}/feed.xml`,
      description: `${labels.quotesBy.replace("{name}", name)}: ${quoteCount(labels, person.count)}.`,
      language: "en",
    },
    (url) => localAudioSize(url, context.get(fileCacheContext).audio ?? DEFAULT_AUDIO_DIR),
  );
}
