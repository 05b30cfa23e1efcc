import { Link, NavLink } from "react-router";
import { SearchBox } from "#app/components/search-box.tsx";
import { SocialIcon } from "#app/components/social-icon.tsx";
import { siteConfig } from "#app/site.config.ts";

// SPEC §2: the main menu.
const MENU = [
  { to: "/", label: "Home", lang: "en", end: true },
  { to: "/english/home", label: "English", lang: "en", end: false },
  { to: "/hindi/home", label: "हिंदी", lang: "hi", end: false },
  { to: "/marathi/home", label: "मराठी", lang: "mr", end: false },
  { to: "/tags", label: "Tags", lang: "en", end: false },
] as const;

export function SiteHeader() {
  return (
    <header className="site-header">
      <div className="site-header-top">
        <Link to="/" className="site-logo" aria-label={`${siteConfig.name}, home`}>
          <img
            src={siteConfig.logo.src}
            alt=""
            width={siteConfig.logo.width}
            height={siteConfig.logo.height}
          />
          <span className="site-name">{siteConfig.name}</span>
        </Link>
        <SearchBox />
        <ul className="social-links" aria-label="Follow us">
          {siteConfig.social.map((link) => (
            <li key={link.network}>
              <a href={link.url} target="_blank" rel="noopener noreferrer" aria-label={link.network}>
                <SocialIcon network={link.network} />
              </a>
            </li>
          ))}
        </ul>
      </div>
      <nav className="main-menu" aria-label="Main">
        <ul>
          {MENU.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.end} lang={item.lang} prefetch="intent">
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
