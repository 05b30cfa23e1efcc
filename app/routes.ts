import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

// Every URL of the site (SPEC §2). Each module is its own lazily loaded chunk.
export default [
  // For crawlers, feed readers and link previews (docs/decisions/030-…, 031-…).
  route("sitemap.xml", "routes/sitemap-index.ts"),
  route("sitemaps/:name", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("manifest.webmanifest", "routes/manifest.ts"),
  route("english/feed.xml", "routes/feed.ts", { id: "routes/feed-english" }),
  route("hindi/feed.xml", "routes/feed.ts", { id: "routes/feed-hindi" }),
  route("marathi/feed.xml", "routes/feed.ts", { id: "routes/feed-marathi" }),
  route("people/:slug/feed.xml", "routes/person-feed.ts"),
  route("share/:language/:version/:file", "routes/share-image.ts"),
  // The public read API: JSON for other sites and apps (issue 30 §2, decision 062, docs/api.md).
  route("api/v1/today", "routes/api/today.ts"),
  route("api/v1/random", "routes/api/random.ts"),
  route("api/v1/posts/:language/:slug", "routes/api/post.ts"),
  route("api/v1/openapi.json", "routes/api/openapi.ts"),
  route("api/*", "routes/api/not-found.ts"),
  // The site's images at narrower widths, for srcset (issue 16).
  route("img/:width/*", "routes/image-variant.ts"),
  // Embeds (issue 30 §3, decision 063): a quote card other sites may frame, its 404 for any
  // other /embed/… address (the only frameable pages: server/security.ts), and oEmbed.
  route("embed/:language/:slug", "routes/embed.ts"),
  route("embed/*", "routes/embed.ts", { id: "routes/embed-other" }),
  route("oembed", "routes/oembed.ts"),
  // A post without an image: its quote card in lists, light or dark (issue 31, decision 064).
  route("card/:language/:version/:scheme/:width/:file", "routes/list-card.ts"),
  // Every page: the layout hands `meta` the public origin and adds feed and icon links.
  layout("routes/site-head.tsx", [
    index("routes/home.tsx"),
    // /{language}/home is the language's home; any other slug is a post.
    route("english/:slug", "routes/language.tsx", { id: "routes/english" }),
    route("hindi/:slug", "routes/language.tsx", { id: "routes/hindi" }),
    route("marathi/:slug", "routes/language.tsx", { id: "routes/marathi" }),
    route("post/:slug", "routes/post.tsx"),
    route("tags", "routes/tags.tsx"),
    route("tag/:slug", "routes/tag.tsx"),
    route("category/:slug", "routes/category.tsx"),
    // Who said or wrote the quotes (issue 15).
    route("people", "routes/people.tsx"),
    route("people/:slug", "routes/person.tsx"),
    // Saved quotes, kept in the reader's browser, and shared collections (issue 27 §2, decision 050).
    route("saved/:language?", "routes/saved.tsx"),
    route("c/:code", "routes/collection.tsx"),
    // A trimmed address (/english, /tag …) redirects to the page it was part of.
    ...["english", "hindi", "marathi", "tag", "category"].map((path) =>
      route(path, "routes/shortcut.ts", { id: `routes/shortcut-${path}` }),
    ),
    // /search?q= (the form without JavaScript) redirects to /search/{text}.
    route("search/*", "routes/search.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
