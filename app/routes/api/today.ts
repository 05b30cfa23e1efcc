import { toApiPost } from "#app/api/post-json.ts";
import { ApiError, apiAnswer, apiJson, languageParam } from "#app/api/respond.server.ts";
import { dailyOffset, dayNumber } from "#app/content/daily.ts";
import { originContext, storeContext } from "#app/context.ts";
import { currentSite } from "#app/site.ts";
import type { Route } from "./+types/today";

/**
 * /api/v1/today?language=L: the quote of the day the language's home shows
 * (the same day, offset and post), kept by shared caches no later than the
 * site's midnight; tagged with the language's list and the post, so a write
 * that changes either drops it.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return apiAnswer(context, async () => {
    const language = languageParam(request);
    if (language === null) throw new ApiError(400, "language is required");
    const store = context.get(storeContext);
    const count = await store.countPosts(language);
    const daily =
      count > 0
        ? await store.postAt(language, dailyOffset(dayNumber(new Date(), currentSite().timeZone), count))
        : null;
    const post = daily ? await store.getPost(language, daily.slug) : null;
    if (!post) throw new ApiError(404, `no published ${language} quote yet`);
    return apiJson(toApiPost(post, context.get(originContext)));
  });
}
