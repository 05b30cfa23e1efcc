import { apiErrorResponse } from "#app/api/respond.server.ts";

/** Any other address under /api/: a JSON 404, never the site's HTML page. */
export function loader() {
  return apiErrorResponse(404, "no such API address; see /api/v1/openapi.json");
}
