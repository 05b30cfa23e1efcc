// The public read API described in OpenAPI 3.1 (decision 062): the one source
// of what the API answers. Served at /api/v1/openapi.json with the site's
// name and origin filled in; tests/integration/api.test.ts checks it with an
// OpenAPI validator and checks every answer it gets against its schemas.
import { LANGUAGES } from "#app/content/languages.ts";

const json = (schema: string) => ({
  "application/json": { schema: { $ref: `#/components/schemas/${schema}` } },
});

const languageQuery = (required: boolean, description: string) => ({
  name: "language",
  in: "query",
  required,
  description,
  schema: { $ref: "#/components/schemas/Language" },
});

/** Answers every operation may give besides its own. */
const REFUSALS = {
  "400": { $ref: "#/components/responses/BadRequest" },
  "405": { $ref: "#/components/responses/MethodNotAllowed" },
  "429": { $ref: "#/components/responses/TooManyRequests" },
  "500": { $ref: "#/components/responses/ServerError" },
  "503": { $ref: "#/components/responses/Unavailable" },
};

const shared = (description: string) => ({
  description,
  headers: {
    ETag: { $ref: "#/components/headers/ETag" },
    "Cache-Control": { $ref: "#/components/headers/CacheControl" },
    "Access-Control-Allow-Origin": { $ref: "#/components/headers/AllowOrigin" },
  },
  content: json("Post"),
});

const NOT_MODIFIED = {
  description: "The post is unchanged since the ETag given in If-None-Match.",
  headers: { ETag: { $ref: "#/components/headers/ETag" } },
};

const errorResponse = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { "Access-Control-Allow-Origin": { $ref: "#/components/headers/AllowOrigin" }, ...headers },
  content: json("Error"),
});

const url = (description: string) => ({ type: "string", format: "uri", description });

export function openApiDocument(siteName: string, origin: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: `${siteName} API`,
      version: "1.0.0",
      summary: "The site's published quotes, read-only, as JSON.",
      description:
        'Read-only and open to any origin (CORS `*`, no credentials). Answers carry an ETag (send it back in If-None-Match for a 304) and a Cache-Control a CDN can honour; the quote of the day is kept no later than the site\'s midnight, a random quote not at all. Each client may make a limited number of requests a minute (429 with Retry-After past it). Errors are JSON: `{"error": "…"}`.',
    },
    servers: [{ url: origin }],
    paths: {
      "/api/v1/today": {
        get: {
          operationId: "today",
          summary: "The quote of the day of a language",
          description:
            "One post for every reader all day in the site's time zone, another the next day. `language` is required: no language is the default.",
          parameters: [languageQuery(true, "The quote's language.")],
          responses: {
            "200": shared("The language's quote of the day."),
            "304": NOT_MODIFIED,
            "404": { $ref: "#/components/responses/NotFound" },
            ...REFUSALS,
          },
        },
      },
      "/api/v1/random": {
        get: {
          operationId: "random",
          summary: "A random published quote",
          description:
            "Each published post equally likely; a new one on every request (Cache-Control: no-store).",
          parameters: [languageQuery(false, "Only quotes of this language; absent: any language.")],
          responses: {
            "200": {
              description: "A random published post.",
              headers: {
                "Cache-Control": { $ref: "#/components/headers/CacheControl" },
                "Access-Control-Allow-Origin": { $ref: "#/components/headers/AllowOrigin" },
              },
              content: json("Post"),
            },
            "404": { $ref: "#/components/responses/NotFound" },
            ...REFUSALS,
          },
        },
      },
      "/api/v1/posts/{language}/{slug}": {
        get: {
          operationId: "post",
          summary: "A published post",
          description:
            "The post at `/{language}/{slug}` on the site. Drafts and unpublished posts are 404, as unknown ones.",
          parameters: [
            {
              name: "language",
              in: "path",
              required: true,
              schema: { $ref: "#/components/schemas/Language" },
            },
            {
              name: "slug",
              in: "path",
              required: true,
              description: "As in the post's address (percent-encoded when it is Devanagari).",
              schema: { type: "string", minLength: 1 },
            },
          ],
          responses: {
            "200": shared("The post."),
            "304": NOT_MODIFIED,
            "404": { $ref: "#/components/responses/NotFound" },
            ...REFUSALS,
          },
        },
      },
      "/api/v1/openapi.json": {
        get: {
          operationId: "openapi",
          summary: "This document",
          responses: {
            "200": { description: "The OpenAPI 3.1 document.", content: { "application/json": {} } },
            "304": NOT_MODIFIED,
          },
        },
      },
    },
    components: {
      schemas: {
        Language: { type: "string", enum: [...LANGUAGES] },
        Post: {
          type: "object",
          additionalProperties: false,
          required: [
            "language",
            "slug",
            "title",
            "text",
            "html",
            "date",
            "url",
            "imageUrl",
            "shareImageUrl",
            "person",
            "work",
            "reference",
            "translations",
          ],
          properties: {
            language: { $ref: "#/components/schemas/Language" },
            slug: { type: "string", minLength: 1 },
            title: { type: "string" },
            text: { type: "string", description: "Plain text; paragraphs and line breaks are newlines." },
            html: {
              type: "string",
              description: "The sanitized HTML the post page shows, its links absolute.",
            },
            date: { type: "string", format: "date-time", description: "When it was posted (UTC)." },
            url: url("The post's page."),
            imageUrl: {
              type: ["string", "null"],
              description: "The post's own image (absolute); null when it has none.",
            },
            shareImageUrl: url("A 1200×630 JPEG of the quote, for link previews."),
            person: {
              description: "Who said or wrote it, named in the post's language; null when not given.",
              oneOf: [
                { type: "null" },
                {
                  type: "object",
                  additionalProperties: false,
                  required: ["name", "url"],
                  properties: { name: { type: "string" }, url: url("Their page on the site.") },
                },
              ],
            },
            work: { type: ["string", "null"], description: "The work it comes from." },
            reference: { type: ["string", "null"], description: "Where in the work." },
            translations: {
              type: "object",
              description: "Its published translations: language → the translation's page.",
              propertyNames: { $ref: "#/components/schemas/Language" },
              additionalProperties: url("The translation's page."),
            },
          },
        },
        Error: {
          type: "object",
          additionalProperties: false,
          required: ["error"],
          properties: { error: { type: "string", description: "What went wrong, in one line." } },
        },
      },
      headers: {
        ETag: { description: "The answer's version, for If-None-Match.", schema: { type: "string" } },
        CacheControl: {
          description:
            "Browsers revalidate (max-age=0), shared caches keep it s-maxage seconds (never past the site's midnight); random: no-store.",
          schema: { type: "string" },
        },
        AllowOrigin: { description: "Always `*`.", schema: { type: "string", const: "*" } },
        RetryAfter: { description: "Seconds to wait before asking again.", schema: { type: "integer" } },
      },
      responses: {
        BadRequest: errorResponse("An unknown or missing language."),
        NotFound: errorResponse("No such published post (drafts and unpublished posts included)."),
        MethodNotAllowed: errorResponse("Only GET, HEAD and OPTIONS are answered.", {
          Allow: { schema: { type: "string" } },
        }),
        TooManyRequests: errorResponse("Too many requests from this client: wait Retry-After seconds.", {
          "Retry-After": { $ref: "#/components/headers/RetryAfter" },
        }),
        ServerError: errorResponse("Something went wrong on the server."),
        Unavailable: errorResponse("The site's content is unavailable for a moment.", {
          "Retry-After": { $ref: "#/components/headers/RetryAfter" },
        }),
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
