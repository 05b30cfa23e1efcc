// Which main-menu item the page belongs to (issue 31, decision 066): the item
// of the page itself gets aria-current="page", the item of the section a page
// is in (a Hindi post: हिंदी; a tag: Tags; a person: People) aria-current="true".
import { isLanguage } from "#app/content/languages.ts";

export interface MenuMatch {
  id: string;
  loaderData?: unknown;
}

export interface MenuSection {
  /** The menu item's address. */
  to: string;
  current: "page" | "true";
}

const LANGUAGE_ROUTES: Record<string, string> = {
  "routes/english": "english",
  "routes/hindi": "hindi",
  "routes/marathi": "marathi",
};

/**
 * The section of the deepest route that has one; null for pages of no
 * section (search, saved quotes, a site page, a 404: their loader gave no data).
 */
export function menuSection(matches: readonly MenuMatch[]): MenuSection | null {
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i];
    if (!match) continue;
    const data = match.loaderData as { kind?: unknown; pageLanguage?: unknown } | null | undefined;
    const language = LANGUAGE_ROUTES[match.id];
    if (language) {
      if (data?.kind === "home") return { to: `/${language}/home`, current: "page" };
      if (data?.kind === "post") return { to: `/${language}/home`, current: "true" };
      return null;
    }
    switch (match.id) {
      case "routes/home":
        return { to: "/", current: "page" };
      case "routes/post":
        // /post/{slug}: a post marks its language; a site page (privacy, terms) nothing.
        return data?.kind === "post" && isLanguage(data.pageLanguage)
          ? { to: `/${data.pageLanguage}/home`, current: "true" }
          : null;
      case "routes/tags":
        return { to: "/tags", current: "page" };
      case "routes/tag":
      case "routes/category":
        return data ? { to: "/tags", current: "true" } : null;
      case "routes/people":
        return { to: "/people", current: "page" };
      case "routes/person":
        return data ? { to: "/people", current: "true" } : null;
      case "root":
      case "routes/site-head":
        continue;
      default:
        return null;
    }
  }
  return null;
}
