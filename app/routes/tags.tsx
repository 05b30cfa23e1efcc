import { Link } from "react-router";
import { addressAlternates } from "#app/content/address-alternates.ts";
import { addressLanguage, withLanguage } from "#app/content/address-language.ts";
import { labelsFor } from "#app/content/labels.ts";
import { LANG_TAG, LANGUAGE_LABEL, LANGUAGES, type Language } from "#app/content/languages.ts";
import { originOf, pageMeta } from "#app/content/seo.ts";
import { storeContext } from "#app/context.ts";
import { siteOf } from "#app/site.ts";
import type { Route } from "./+types/tags";

/** The page's words in each language (decision 067). */
const TAGS_LABELS = {
  english: {
    title: "Tags",
    description: "Every topic of the collection, in English, Hindi and Marathi, with its number of quotes.",
    byPeople: "Quotes by who said them:",
    noTags: "No tags yet.",
  },
  hindi: {
    title: "टैग",
    description: "संग्रह के सभी विषय, अंग्रेज़ी, हिंदी और मराठी में, हर विषय की सूक्तियों की संख्या के साथ।",
    byPeople: "कहने वालों के अनुसार सूक्तियाँ:",
    noTags: "अभी कोई टैग नहीं।",
  },
  marathi: {
    title: "टॅग",
    description: "संग्रहातील सर्व विषय, इंग्रजी, हिंदी आणि मराठीत, प्रत्येक विषयाच्या सुविचारांच्या संख्येसह.",
    byPeople: "ज्यांनी सांगितले त्यांच्यानुसार सुविचार:",
    noTags: "अजून कोणताही टॅग नाही.",
  },
} satisfies Record<Language, Record<string, string>>;

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const language = loaderData?.pageLanguage ?? "english";
  const words = TAGS_LABELS[language];
  return [
    ...pageMeta({
      siteName: siteOf(matches).name,
      origin: originOf(matches),
      title: `${words.title} · ${siteOf(matches).name}`,
      description: words.description,
      path: withLanguage("/tags", language),
      language,
    }),
    ...addressAlternates(originOf(matches), "/tags"),
  ];
};

export async function loader({ context, request }: Route.LoaderArgs) {
  // A page of no language: in the one its address names (decision 067).
  const pageLanguage = addressLanguage(new URL(request.url).searchParams);
  const tags = await context.get(storeContext).listTags();
  // One group per language, marked with its lang: a tag used in Hindi and in
  // Marathi (भक्ति, भक्ती) appears in each with that language's count.
  const groups = LANGUAGES.map((language) => ({
    id: language,
    heading: LANGUAGE_LABEL[language],
    lang: LANG_TAG[language],
    tags: tags
      .filter((tag) => tag.language === language)
      .map(({ name, slug, count }) => ({ name, count, href: `/tag/${encodeURIComponent(slug)}` })),
  }));
  return {
    pageLanguage,
    switchable: true,
    total: tags.length,
    groups: groups.filter((group) => group.tags.length > 0),
  };
}

export default function Tags({ loaderData }: Route.ComponentProps) {
  const language = loaderData.pageLanguage;
  const words = TAGS_LABELS[language];
  return (
    <section className="tags-page">
      <h1>{words.title}</h1>
      <p className="intro">
        {words.byPeople} <Link to={withLanguage("/people", language)}>{labelsFor(language).people}</Link>.
      </p>
      {loaderData.total === 0 ? <p className="empty">{words.noTags}</p> : null}
      {loaderData.groups.map((group) => (
        <section key={group.id} aria-labelledby={`tags-${group.id}`} className="tag-group">
          <h2 id={`tags-${group.id}`} lang={group.lang}>
            {group.heading} <span className="count">({group.tags.length})</span>
          </h2>
          <ul className="tag-cloud" lang={group.lang}>
            {group.tags.map((tag) => (
              <li key={tag.href}>
                <Link to={tag.href} className="chip">
                  {tag.name} <span className="count">{tag.count}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
