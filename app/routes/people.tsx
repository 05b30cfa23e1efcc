import { Link } from "react-router";
import { PersonCounts } from "#app/components/person-counts.tsx";
import { addressAlternates } from "#app/content/address-alternates.ts";
import { addressLanguage, withLanguage } from "#app/content/address-language.ts";
import { LANG_TAG } from "#app/content/languages.ts";
import {
  languageCounts,
  nameLang,
  otherNames,
  personAbout,
  personName,
  personPath,
} from "#app/content/people.ts";
import { readingLabelsFor } from "#app/content/reading-labels.ts";
import { originOf, pageMeta } from "#app/content/seo.ts";
import { storeContext } from "#app/context.ts";
import { siteOf } from "#app/site.ts";
import type { Route } from "./+types/people";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const language = loaderData?.pageLanguage ?? "english";
  const labels = readingLabelsFor(language);
  return [
    ...pageMeta({
      siteName: siteOf(matches).name,
      origin: originOf(matches),
      title: `${labels.people} · ${siteOf(matches).name}`,
      description: labels.peopleIntro,
      path: withLanguage("/people", language),
      language,
    }),
    // A page of no language, in the three (decision 067).
    ...addressAlternates(originOf(matches), "/people"),
  ];
};

const latinFirst = new Intl.Collator(["en", "hi", "mr"], { sensitivity: "base", numeric: true });
/** "The Buddha" is listed under B. */
const sortName = (name: string) => name.replace(/^the\s+/i, "");

/**
 * /people: everyone with a published quote, once each whatever scripts their
 * names are in: listed by their English name (the Latin alphabet first), with
 * their names in the other scripts beside it, their count of quotes in each
 * language they have any in, and their line (decision 066).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const people = await context.get(storeContext).listPeople();
  const pageLanguage = addressLanguage(new URL(request.url).searchParams);
  return {
    pageLanguage,
    switchable: true,
    people: people
      .map((person) => {
        const name = personName(person.names, "english");
        return {
          name,
          lang: nameLang(person.names, name),
          others: otherNames(person.names, name),
          counts: languageCounts(person.counts),
          about: personAbout(person.about, pageLanguage),
          href: withLanguage(personPath(person.slug), pageLanguage),
        };
      })
      .sort((a, b) => latinFirst.compare(sortName(a.name), sortName(b.name))),
  };
}

export default function People({ loaderData }: Route.ComponentProps) {
  const labels = readingLabelsFor(loaderData.pageLanguage);
  return (
    <section className="people-page" lang={LANG_TAG[loaderData.pageLanguage]}>
      <h1>{labels.people}</h1>
      <p className="intro">{labels.peopleIntro}</p>
      {loaderData.people.length === 0 ? <p className="empty">{labels.noPosts}</p> : null}
      <ul className="people-list">
        {loaderData.people.map((person) => (
          <li key={person.href}>
            <Link to={person.href}>
              <span lang={person.lang}>{person.name}</span>
              {person.others.map((other) => (
                <span key={other.name} lang={other.lang} className="person-other-name">
                  {other.name}
                </span>
              ))}
            </Link>{" "}
            <PersonCounts counts={person.counts} labels={labels} />
            {person.about ? (
              <span className="person-about" lang={person.about.lang}>
                {person.about.text}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
