import { useMemo } from "react";
import { Link } from "react-router";
import { GalleryTiles } from "#app/components/gallery-tiles.tsx";
import { PostImage } from "#app/components/post-image.tsx";
import { drawGallery, type Gallery, isGallerySlot } from "#app/content/gallery.ts";
import { toPostCard } from "#app/content/post-view.ts";
import { languageAlternates, originOf, pageMeta, summarize } from "#app/content/seo.ts";
import { gallerySlotContext, randomContext, storeContext } from "#app/context.ts";
import { currentSite, siteOf } from "#app/site.ts";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const origin = originOf(matches);
  return [
    ...pageMeta({
      siteName: siteOf(matches).name,
      origin,
      title: `${siteOf(matches).name} · ${loaderData?.tagline ?? ""}`,
      description: summarize(loaderData?.about.teaser ?? ""),
      path: "/",
      language: "english",
    }),
    ...languageAlternates(origin),
  ];
};

export async function loader({ context }: Route.LoaderArgs) {
  const store = context.get(storeContext);
  // SPEC §7: the newest published post, and the gallery (content/gallery.ts).
  // Rendered as the fast home's template, the gallery is a slot token instead.
  const slot = context.get(gallerySlotContext);
  const [latest, gallery] = await Promise.all([
    store.latestPost(),
    slot ?? drawGallery(store, context.get(randomContext)).then((drawn) => JSON.stringify(drawn)),
  ]);
  // The about box: the running identity's (SITE_CONFIG), only on the home.
  const { about, tagline } = currentSite();
  return { hero: latest ? toPostCard(latest) : null, gallery, about, tagline };
}

export function headers() {
  // A fresh random gallery for every request.
  return { "Cache-Control": "no-store" };
}

export default function Home({ loaderData, matches }: Route.ComponentProps) {
  const { hero, about } = loaderData;
  const site = siteOf(matches);
  const gallery = useMemo(
    () => (isGallerySlot(loaderData.gallery) ? null : (JSON.parse(loaderData.gallery) as Gallery)),
    [loaderData.gallery],
  );
  return (
    <div className="home">
      {hero ? (
        <section className="hero" aria-labelledby="hero-title">
          <Link to={hero.href} className="hero-link" lang={hero.lang}>
            <PostImage src={hero.image} alt="" eager className="hero-image" place="hero" />
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
        <h1>{site.name}</h1>
      )}

      <section className="gallery" aria-labelledby="gallery-title">
        <h2 id="gallery-title">From the collection</h2>
        <div className="gallery-rows">
          {gallery ? <GalleryTiles gallery={gallery} /> : loaderData.gallery}
        </div>
      </section>

      <section className="about" aria-labelledby="about-title">
        <h2 id="about-title">{about.heading}</h2>
        <p>{about.teaser}</p>
        <a href={about.readMoreUrl} className="button" target="_blank" rel="noopener noreferrer">
          {about.readMoreLabel}
          <span className="visually-hidden"> about {site.teacherName}</span>
        </a>
      </section>
    </div>
  );
}
