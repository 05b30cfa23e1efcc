// Which main-menu item the page belongs to (decision 066): the item
// of the page itself gets aria-current="page", the item of the section a page
// is in (a Hindi post: हिंदी; a tag: Tags; a person: People) aria-current="true".
// Kept small: it is in every page's JavaScript (decision 033).

/** The menu item's address, and how it is current. */
export type MenuSection = [to: string, current: "page" | "true"];

/** Route id (after "routes/") → its menu item; the item's own page is the route named as it. */
const SECTIONS: Record<string, string> = {
  home: "/",
  tags: "/tags",
  tag: "/tags",
  category: "/tags",
  people: "/people",
  person: "/people",
};

/**
 * The section of the page's route (the deepest match): a language home and a
 * post (at /{language}/… or /post/…) mark their language. Null for pages of
 * no section: search, saved quotes, a site page, and any page its loader gave
 * no data (a 404).
 */
export function menuSection(match: { id: string; loaderData?: unknown } | undefined): MenuSection | null {
  const data = match?.loaderData as { kind?: unknown; pageLanguage?: unknown } | undefined;
  if (!match || !data) return null;
  if (data.kind === "home" || data.kind === "post") {
    return [`/${data.pageLanguage}/home`, data.kind === "home" ? "page" : "true"];
  }
  const name = match.id.slice(7);
  const to = SECTIONS[name];
  return to ? [to, to === `/${name}` || to === "/" ? "page" : "true"] : null;
}
