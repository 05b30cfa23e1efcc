import { toApiPost } from "#app/api/post-json.ts";
import { ApiError, apiAnswer, apiJson, languageParam } from "#app/api/respond.server.ts";
import { originContext, randomContext, storeContext } from "#app/context.ts";
import type { Route } from "./+types/random";

/**
 * /api/v1/random[?language=L]: a published post, each equally likely
 * (ContentStore.randomPost: a few index seeks). A new draw each time, so
 * no cache may keep it (no-store).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return apiAnswer(context, async () => {
    const language = languageParam(request, { optional: true });
    const store = context.get(storeContext);
    const drawn = await store.randomPost(language, context.get(randomContext));
    const post = drawn ? await store.getPost(drawn.language, drawn.slug) : null;
    if (!post)
      throw new ApiError(404, language ? `no published ${language} quote yet` : "no published quote yet");
    return apiJson(toApiPost(post, context.get(originContext)), { fresh: true });
  });
}
