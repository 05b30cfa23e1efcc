import { toApiPost } from "#app/api/post-json.ts";
import { ApiError, apiAnswer, apiJson, languageOf } from "#app/api/respond.server.ts";
import { originContext, storeContext } from "#app/context.ts";
import type { Route } from "./+types/post";

/**
 * /api/v1/posts/{language}/{slug}: the published post the page
 * /{language}/{slug} shows, tagged as that page is (the post, its
 * translations, its person's name). A draft, an unpublished post and an
 * unknown slug are the same 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  return apiAnswer(context, async () => {
    const language = languageOf(params.language);
    const post = await context.get(storeContext).getPost(language, params.slug);
    if (!post) throw new ApiError(404, "no such post");
    return apiJson(toApiPost(post, context.get(originContext)));
  });
}
