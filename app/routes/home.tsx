import { Link } from "react-router";
import { PostImage } from "#app/components/post-image.tsx";
import { LANGUAGES, MAX_ID_FIELD } from "#app/content/languages.ts";
import { toPostCard } from "#app/content/post-view.ts";
import { drawIds, GALLERY_TILES_PER_LANGUAGE } from "#app/content/sampling.ts";
import { languageAlternates, originOf, pageMeta, summarize } from "#app/content/seo.ts";
import { randomContext, storeContext } from "#app/context.ts";
import { siteConfig } from "#app/site.config.ts";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = ({ matches }) => {
  const origin = originOf(matches);
  return [
    ...pageMeta({
      origin,
      title: `${siteConfig.name} · ${siteConfig.tagline}`,
      description: summarize(siteConfig.about.teaser),
      path: "/",
      language: "english",
    }),
    ...languageAlternates(origin),
  ];
};

export async function loader({ context }: Route.LoaderArgs) {
  const store = context.get(storeContext);
  const random = context.get(randomContext);
  // SPEC §7: the website record, then per language 6 draws in [0, max] and
  // up to 3 published posts among them; and the newest published post.
  const website = await store.getWebsite();
  const draws = LANGUAGES.map((language) => ({
    language,
    ids: drawIds(website[MAX_ID_FIELD[language]], random),
  }));
  const [latest, ...samples] = await Promise.all([
    store.latestPost(),
    ...draws.map(({ language, ids }) => store.samplePosts(language, ids, GALLERY_TILES_PER_LANGUAGE)),
  ]);
  return {
    hero: latest ? toPostCard(latest) : null,
    gallery: draws.map(({ language }, index) => ({
      language,
      tiles: (samples[index] ?? []).map(toPostCard),
    })),
  };
}

export function headers() {
  // A fresh random gallery for every request.
  return { "Cache-Control": "no-store" };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { hero, gallery } = loaderData;
  return (
    <div className="home">
      {hero ? (
        <section className="hero" aria-labelledby="hero-title">
          <Link to={hero.href} className="hero-link" lang={hero.lang}>
            <PostImage src={hero.image} alt="" eager className="hero-image" />
            <div className="hero-text">
              <p className="hero-kicker" lang="en">
                Latest
              </p>
              <h1 id="hero-title" className="hero-title">
                {hero.title}
              </h1>
              <time dateTime={hero.isoDateTime}>{hero.postDateTime}</time>
            </div>
          </Link>
        </section>
      ) : (
        <h1>{siteConfig.name}</h1>
      )}

      <section className="gallery" aria-labelledby="gallery-title">
        <h2 id="gallery-title">From the collection</h2>
        <ul className="gallery-grid">
          {gallery.flatMap(({ language, tiles }) =>
            tiles.map((tile) => (
              <li key={tile.href} className="gallery-tile" data-language={language}>
                <Link to={tile.href}>
                  <PostImage src={tile.image} alt={tile.title} lang={tile.lang} />
                </Link>
              </li>
            )),
          )}
        </ul>
      </section>

      <section className="about" aria-labelledby="about-title">
        <h2 id="about-title">{siteConfig.about.heading}</h2>
        <p>{siteConfig.about.teaser}</p>
        <a href={siteConfig.about.readMoreUrl} className="button" target="_blank" rel="noopener noreferrer">
          {siteConfig.about.readMoreLabel}
          <span className="visually-hidden"> about {siteConfig.teacherName}</span>
        </a>
      </section>
    </div>
  );
}
