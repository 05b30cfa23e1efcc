import { Link } from "react-router";
import { useSite } from "#app/components/use-site.ts";
import type { Labels } from "#app/content/labels.ts";
import { type Language, savedPath, withLanguage } from "#app/content/languages.ts";

export function SiteFooter({ year, labels, language }: { year: number; labels: Labels; language: Language }) {
  const { copyrightHolder, contact } = useSite();
  return (
    <footer className="site-footer">
      <p>
        © {year} {copyrightHolder}
      </p>
      <ul>
        {/* The reader's saved quotes, in the page's language (decision 050). */}
        <li>
          <Link to={savedPath(language)}>{labels.savedQuotes}</Link>
        </li>
        {/* The site pages in the page's language (decision 067). */}
        <li>
          <Link to={withLanguage("/post/privacy-policy", language)}>{labels.privacyPolicy}</Link>
        </li>
        <li>
          <Link to={withLanguage("/post/terms-conditions", language)}>{labels.terms}</Link>
        </li>
        {/* SITE_CONFIG's contact link, when it has one (decision 055): a mail address or a page. */}
        {contact ? (
          <li>
            <a href={contact.url} className="contact-link">
              {contact.label?.[language] ?? labels.contact}
            </a>
          </li>
        ) : null}
      </ul>
    </footer>
  );
}
