import { openApiDocument } from "#app/api/openapi.ts";
import { apiAnswer, apiJson } from "#app/api/respond.server.ts";
import { originContext } from "#app/context.ts";
import { currentSite } from "#app/site.ts";
import type { Route } from "./+types/openapi";

/** /api/v1/openapi.json: the API described in OpenAPI 3.1, on this site's origin. */
export async function loader({ context }: Route.LoaderArgs) {
  return apiAnswer(context, async () =>
    apiJson(openApiDocument(currentSite().name, context.get(originContext))),
  );
}
