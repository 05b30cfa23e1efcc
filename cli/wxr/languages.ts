import type { Language } from "#app/content/languages.ts";
import { cutText, parseLanguage } from "#app/content/schemas.ts";
import { type PhpValue, parsePhpSerialized } from "#cli/wxr/php-serialized.ts";
import type { Term, WxrChannel, WxrContext, WxrItem } from "#cli/wxr/types.ts";

// A post's language and translation group: a category or tag naming the
// language, Polylang's terms, or WPML's post meta.

// WPML Export and Import: a post's language and translation group as post meta.
export const WPML_LANGUAGE = "_wpml_import_language_code";
export const WPML_GROUP = "_wpml_import_translation_group";

const POLYLANG_TAXONOMIES = new Set(["term_language", "post_translations", "term_translations"]);

/**
 * A <wp:term> of the channel. Polylang keeps each translation group as a term
 * of `post_translations` (slug `pll_…`) whose description is a PHP-serialized
 * map language slug → post id, e.g. a:2:{s:2:"en";i:12;s:2:"hi";i:15;}, and
 * sometimes more data (a "sync" array), which is not a post.
 */
export function readTerm(term: { taxonomy: string; slug: string; description: string }, channel: WxrChannel) {
  if (POLYLANG_TAXONOMIES.has(term.taxonomy)) channel.polylang = true;
  if (term.taxonomy !== "post_translations" || term.slug === "" || term.description === "") return;
  const where = `<wp:term> ${cutText(term.slug, 80)} (post_translations)`;
  const ignored = 'its posts keep the group only if their own <category domain="post_translations"> names it';
  let map: PhpValue;
  try {
    map = parsePhpSerialized(term.description);
  } catch (error) {
    channel.warnings.push(
      `${where}: wp:term_description is not a readable serialized array (${cutText((error as Error).message, 120)}); ${ignored}`,
    );
    return;
  }
  if (!(map instanceof Map)) {
    channel.warnings.push(`${where}: wp:term_description is not a serialized array; ${ignored}`);
    return;
  }
  for (const [language, id] of map) {
    if (typeof language !== "string") continue;
    const postId =
      typeof id === "number" && id > 0 ? String(id) : typeof id === "string" && /^\d+$/.test(id) ? id : null;
    if (postId === null) continue; // extra data, e.g. "sync" => array
    const other = channel.translationGroups.get(postId);
    if (other !== undefined && other !== term.slug) {
      channel.warnings.push(
        `${where}: post ${postId} is also in translation group ${cutText(other, 80)}, which it keeps`,
      );
      continue;
    }
    channel.translationGroups.set(postId, term.slug);
  }
}

// Category or tag names that say which language a post is in.
const LANGUAGE_TERM_NAMES: Record<string, Language> = {
  english: "english",
  hindi: "hindi",
  हिंदी: "hindi",
  हिन्दी: "hindi",
  marathi: "marathi",
  मराठी: "marathi",
};

export function languageOfTerm(name: string): Language | null {
  return LANGUAGE_TERM_NAMES[name.normalize("NFC").trim().toLowerCase()] ?? null;
}

/** "hi-IN" → hindi, "mr" → marathi, "en-US" → english; null for other languages. */
export function languageOfLocale(locale: string): Language | null {
  return parseLanguage(locale.trim().split(/[-_]/)[0] ?? "");
}

/**
 * The language a multilingual plugin gives the post: Polylang's
 * <category domain="language" nicename="hi">हिन्दी</category>, else WPML's
 * _wpml_import_language_code meta. `language: null` is a language the site
 * does not have (the post is skipped); null, no plugin language at all. A
 * `language` term the site cannot read counts only in a Polylang export: on
 * another site it may be a taxonomy of its own, and the other rules apply.
 */
export function pluginLanguage(
  item: WxrItem,
  terms: Term[],
  context: WxrContext,
): { language: Language | null; code: string } | null {
  const polylang = terms.find((term) => term.domain === "language" && (term.nicename || term.name));
  if (polylang) {
    const language =
      languageOfLocale(polylang.nicename) ?? languageOfTerm(polylang.name) ?? languageOfLocale(polylang.name);
    const sure = context.polylang || terms.some((term) => term.domain === "post_translations");
    if (language || sure) return { language, code: polylang.nicename || polylang.name };
  }
  const wpml = item.meta.get(WPML_LANGUAGE)?.trim();
  if (wpml) return { language: languageOfLocale(wpml), code: wpml };
  return null;
}

/**
 * Polylang: the group its <category domain="post_translations"> names, else
 * the group whose map (in the channel) lists its post id; WPML: "wpml-" and
 * its _wpml_import_translation_group meta.
 */
export function translationKeyOf(item: WxrItem, terms: Term[], context: WxrContext): string | undefined {
  const group = terms.find((term) => term.domain === "post_translations");
  const polylang = (group?.nicename || group?.name)?.trim() || context.translationGroups?.get(item.postId);
  if (polylang) return polylang;
  const wpml = item.meta.get(WPML_GROUP)?.trim();
  return wpml ? `wpml-${wpml}` : undefined;
}
