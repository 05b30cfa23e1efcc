// How the API's routes answer (decision 062): JSON with CORS for any origin,
// errors as {"error": "…"} with their status, never HTML or a stack trace.
// A 200 a shared cache may keep carries no Cache-Control of its own: the
// server gives it the pages' (s-maxage never past the site's midnight), its
// cache tags and an ETag (server/send-page.ts); `fresh: true` answers
// (random) say no-store.
import type { RouterContextProvider } from "react-router";
import { isLanguage, LANGUAGES, type Language } from "#app/content/languages.ts";
import { loggerContext, requestIdContext } from "#app/context.ts";

/** On every /api/ answer (server/api-gate.ts sets them on its own refusals too). */
export const API_CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag, Retry-After, X-Request-Id",
} as const;

const JSON_TYPE = "application/json; charset=utf-8";

/** A refusal a route throws: answered as {"error": message} with `status`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function apiJson(body: unknown, { fresh = false } = {}): Response {
  return new Response(JSON.stringify(body), {
    headers: {
      "Content-Type": JSON_TYPE,
      ...API_CORS_HEADERS,
      ...(fresh ? { "Cache-Control": "no-store" } : {}),
    },
  });
}

export function apiErrorResponse(status: number, message: string): Response {
  return new Response(JSON.stringify({ error: message }), {
    status,
    headers: { "Content-Type": JSON_TYPE, "Cache-Control": "no-store", ...API_CORS_HEADERS },
  });
}

/** Runs a route's answer: an ApiError becomes its JSON refusal, anything else a logged 500. */
export async function apiAnswer(
  context: Readonly<RouterContextProvider>,
  answer: () => Promise<Response>,
): Promise<Response> {
  try {
    return await answer();
  } catch (error) {
    if (error instanceof ApiError) return apiErrorResponse(error.status, error.message);
    const detail =
      error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
    context
      .get(loggerContext)
      ?.error("api request failed", { requestId: context.get(requestIdContext).id, ...detail });
    return apiErrorResponse(500, "something went wrong; please try again in a moment");
  }
}

const LANGUAGE_LIST = LANGUAGES.join(", ");

/** A language named in the address (a path segment or ?language=): one of LANGUAGES, else 400. */
export function languageOf(value: string | null | undefined): Language {
  if (value === null || value === undefined || value === "")
    throw new ApiError(400, `language is required: one of ${LANGUAGE_LIST}`);
  if (!isLanguage(value)) throw new ApiError(400, `unknown language; use one of ${LANGUAGE_LIST}`);
  return value;
}

/** ?language= of a request: required, or null when absent and `optional`. */
export function languageParam(request: Request, { optional = false } = {}): Language | null {
  const value = new URL(request.url).searchParams.get("language");
  if (value === null && optional) return null;
  return languageOf(value);
}
