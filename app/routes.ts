import { index, type RouteConfig, route } from "@react-router/dev/routes";

// Every URL of the site (SPEC §2). Each module is its own lazily loaded chunk.
export default [
  index("routes/home.tsx"),
  // /{language}/home is the language's home; any other slug is a post.
  route("english/:slug", "routes/english.tsx"),
  route("hindi/:slug", "routes/hindi.tsx"),
  route("marathi/:slug", "routes/marathi.tsx"),
  route("post/:slug", "routes/post.tsx"),
  route("tags", "routes/tags.tsx"),
  route("tag/:slug", "routes/tag.tsx"),
  route("category/:slug", "routes/category.tsx"),
  // /search?q= (the form without JavaScript) redirects to /search/{text}.
  route("search/*", "routes/search.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
