import { Link } from "react-router";
import type { Labels } from "#app/content/labels.ts";
import { type Language, savedPath } from "#app/content/languages.ts";
import { siteConfig } from "#app/site.config.ts";

export function SiteFooter({ year, labels, language }: { year: number; labels: Labels; language: Language }) {
  return (
    <footer className="site-footer">
      <p>
        © {year} {siteConfig.copyrightHolder}
      </p>
      <ul>
        {/* The reader's saved quotes, in the page's language (decision 050). */}
        <li>
          <Link to={savedPath(language)}>{labels.savedQuotes}</Link>
        </li>
        <li>
          <Link to="/post/privacy-policy">{labels.privacyPolicy}</Link>
        </li>
        <li>
          <Link to="/post/terms-conditions">{labels.terms}</Link>
        </li>
      </ul>
    </footer>
  );
}
