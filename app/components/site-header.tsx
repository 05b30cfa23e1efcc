import { Link, useMatches } from "react-router";
import { LanguageSwitch } from "#app/components/language-switch.tsx";
import { menuSection } from "#app/components/menu-section.ts";
import { SearchBox } from "#app/components/search-box.tsx";
import { SocialIcon } from "#app/components/social-icon.tsx";
import { useSite } from "#app/components/use-site.ts";
import type { Labels } from "#app/content/labels.ts";
import { type Language, withLanguage } from "#app/content/languages.ts";

// SPEC §2: the main menu. Home, Tags and People speak the page's language;
// each language's own name is written in that language. People (decision 066)
// comes last: the SPEC's items keep their places.
function menu(labels: Labels) {
  return [
    { to: "/", label: labels.home, lang: undefined },
    { to: "/english/home", label: "English", lang: "en" },
    { to: "/hindi/home", label: "हिंदी", lang: "hi" },
    { to: "/marathi/home", label: "मराठी", lang: "mr" },
    { to: "/tags", label: labels.tags, lang: undefined },
    { to: "/people", label: labels.peopleMenu, lang: undefined },
  ];
}

export function SiteHeader({
  labels,
  language,
  switchable,
}: {
  labels: Labels;
  /** The page's language: the frame's links to pages of no language carry it (decision 067). */
  language: Language;
  /** The page has no language of its own: the header offers the three. */
  switchable: boolean;
}) {
  // On a results page the box keeps the words searched, ready to refine.
  const searched = useMatches().find((match) => match.id === "routes/search")?.loaderData as
    | { text?: string }
    | undefined;
  const text = searched?.text ?? "";
  // The item of the section the page belongs to (decision 066).
  const section = menuSection(useMatches().at(-1));
  const site = useSite();
  return (
    <header className="site-header">
      <div className="site-header-top">
        <Link
          to={withLanguage("/", language)}
          className="site-logo"
          aria-label={`${site.name}, ${labels.home}`}
        >
          <img src={site.logo.src} alt="" width={site.logo.width} height={site.logo.height} />
          <span className="site-name">{site.name}</span>
        </Link>
        <ul className="social-links" aria-label={labels.followUs}>
          {site.social.map((link) => (
            <li key={link.network}>
              <a href={link.url} target="_blank" rel="noopener noreferrer" aria-label={link.network}>
                <SocialIcon network={link.network} />
              </a>
            </li>
          ))}
        </ul>
        {/* After the social links in the page as on the screen: tab order follows what is seen. */}
        <SearchBox key={text} defaultValue={text} labels={labels} language={language} />
      </div>
      <nav className="main-menu" aria-label={labels.mainMenu}>
        <ul>
          {menu(labels).map((item) => (
            <li key={item.to}>
              {/* Styled by its aria-current (app.css). */}
              <Link
                to={item.lang ? item.to : withLanguage(item.to, language)}
                lang={item.lang}
                prefetch="intent"
                aria-current={section?.[0] === item.to ? section[1] : undefined}
              >
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {/* Decision 067: the language switch, in an element of its own. */}
      {switchable ? <LanguageSwitch labels={labels} language={language} /> : null}
    </header>
  );
}
