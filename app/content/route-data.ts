// What the language, post and term routes' loaders give their screens
// (app/routes/language-route.server.ts and term-route.server.ts fill them;
// app/components/language-screen.tsx and term-screen.tsx draw them): named
// here so that components need nothing from a route's server module.
import type { Language } from "#app/content/languages.ts";
import type { Term } from "#app/content/model.ts";
import type { PostCard, PostView } from "#app/content/post-view.ts";
import type { RomanQuote } from "#app/content/roman-letters.ts";

/** /english/home, /hindi/home, /marathi/home: a page of the language's posts. */
export interface LanguageHomeData {
  kind: "home";
  pageLanguage: Language;
  page: number;
  pageCount: number;
  hasNext: boolean;
  /** The quote of the day (page 1), its excerpt's verse lines kept as lines. */
  quoteOfTheDay: PostCard | null;
  posts: PostCard[];
}

/** A published post with its neighbours and related posts. */
export interface PostRouteData {
  kind: "post";
  pageLanguage: Language;
  post: PostView;
  url: string;
  previous: PostCard | null;
  next: PostCard | null;
  related: PostCard[];
  /** The quote in Roman letters (Hindi and Marathi posts; decision 051). */
  roman: RomanQuote | null;
}

/** /english/:slug and friends: the language's home or a post. */
export type LanguageRouteData = LanguageHomeData | PostRouteData;

/** /tag/:slug and /category/:slug: a page of the term's published posts. */
export interface TermRouteData {
  term: Term;
  pageLanguage: Language;
  /** A term of mixed languages is shown in the one its address names (decision 067). */
  switchable: boolean;
  basePath: string;
  page: number;
  hasNext: boolean;
  posts: PostCard[];
}
