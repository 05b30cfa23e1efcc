import { useMemo } from "react";
import { Link } from "react-router";
import { GalleryTiles } from "#app/components/gallery-tiles.tsx";
import { PostImage } from "#app/components/post-image.tsx";
import { addressAlternates } from "#app/content/address-alternates.ts";
import { addressLanguage, withLanguage } from "#app/content/address-language.ts";
import { type Gallery, isGallerySlot } from "#app/content/gallery.ts";
import { labelsFor } from "#app/content/labels.ts";
import { LANG_TAG, type Language } from "#app/content/languages.ts";
import { toPostCard } from "#app/content/post-view.ts";
import { originOf, pageMeta, summarize } from "#app/content/seo.ts";
import { gallerySlotContext, originContext, randomContext, storeContext } from "#app/context.ts";
import { drawGallery } from "#app/routes/home-route.server.ts";
import { currentSite, type SiteConfig, siteOf } from "#app/site.ts";
import type { Route } from "./+types/home";

/** The home's own words in each language (decision 067), handed over by the loader (none in the browser's bundle). */
const HOME_LABELS = {
  english: { fromTheCollection: "From the collection", aboutTeacher: "about {name}" },
  hindi: { fromTheCollection: "संग्रह से", aboutTeacher: "{name} के बारे में" },
  marathi: { fromTheCollection: "संग्रहातून", aboutTeacher: "{name} यांच्याविषयी" },
} satisfies Record<Language, Record<string, string>>;

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const origin = originOf(matches);
  const language = loaderData?.pageLanguage ?? "english";
  return [
    ...pageMeta({
      siteName: siteOf(matches).name,
      origin,
      title: `${siteOf(matches).name} · ${loaderData?.tagline ?? ""}`,
      description: summarize(loaderData?.about.teaser ?? ""),
      path: loaderData?.path ?? "/",
      language,
    }),
    // The home in its three languages (decision 067).
    ...(loaderData?.alternates ?? []),
  ];
};

/** The about box in a language: SITE_CONFIG's about, with its Hindi or Marathi keys where it has them. */
function aboutIn(about: SiteConfig["about"], language: Language) {
  const { hindi, marathi, ...english } = about;
  const own = language === "hindi" ? hindi : language === "marathi" ? marathi : undefined;
  return {
    ...english,
    ...own,
    // The English text where the file has no translation: said so by its lang.
    lang: own?.teaser ? LANG_TAG[language] : "en",
  };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  // A page of no language: shown in the one its address names (?lang=, decision 067).
  const pageLanguage = addressLanguage(new URL(request.url).searchParams);
  const store = context.get(storeContext);
  // SPEC §7: the newest published post, and the gallery (home-route.server.ts).
  // Rendered as the fast home's template, the gallery is a slot token instead.
  const slot = context.get(gallerySlotContext);
  const [latest, gallery] = await Promise.all([
    store.latestPost(),
    slot ?? drawGallery(store, context.get(randomContext)).then((drawn) => JSON.stringify(drawn)),
  ]);
  // The about box: the running identity's (SITE_CONFIG), only on the home.
  const { about, tagline } = currentSite();
  return {
    pageLanguage,
    switchable: true,
    // The canonical address and hreflang links made here: the code that makes them stays on the server.
    path: withLanguage("/", pageLanguage),
    alternates: addressAlternates(context.get(originContext), "/"),
    words: HOME_LABELS[pageLanguage],
    hero: latest ? toPostCard(latest) : null,
    gallery,
    about: aboutIn(about, pageLanguage),
    tagline,
  };
}

export function headers() {
  // A fresh random gallery for every request.
  return { "Cache-Control": "no-store" };
}

export default function Home({ loaderData, matches }: Route.ComponentProps) {
  const { hero, about, pageLanguage, words } = loaderData;
  const labels = labelsFor(pageLanguage);
  const site = siteOf(matches);
  const gallery = useMemo(
    () => (isGallerySlot(loaderData.gallery) ? null : (JSON.parse(loaderData.gallery) as Gallery)),
    [loaderData.gallery],
  );
  return (
    <div className="home">
      {/* The page's heading is the site's name; the newest post's title heads the hero (decision 067). */}
      <h1 className="visually-hidden">{site.name}</h1>
      {hero ? (
        <section className="hero" aria-labelledby="hero-title">
          <Link to={hero.href} className="hero-link" lang={hero.lang}>
            <PostImage src={hero.image} alt="" eager className="hero-image" place="hero" />
            <div className="hero-text">
              <p className="hero-kicker" lang={LANG_TAG[pageLanguage]}>
                {labels.latest}
              </p>
              <h2 id="hero-title" className="hero-title">
                {hero.title}
              </h2>
              <time dateTime={hero.isoDateTime}>{hero.postDateTime}</time>
            </div>
          </Link>
        </section>
      ) : null}

      <section className="gallery" aria-labelledby="gallery-title">
        <h2 id="gallery-title">{words.fromTheCollection}</h2>
        <div className="gallery-rows">
          {gallery ? <GalleryTiles gallery={gallery} /> : loaderData.gallery}
        </div>
      </section>

      <section className="about" aria-labelledby="about-title" lang={about.lang}>
        <h2 id="about-title">{about.heading}</h2>
        <p>{about.teaser}</p>
        <a href={about.readMoreUrl} className="button" target="_blank" rel="noopener noreferrer">
          {about.readMoreLabel}
          <span className="visually-hidden"> {words.aboutTeacher.replace("{name}", site.teacherName)}</span>
        </a>
      </section>
    </div>
  );
}
