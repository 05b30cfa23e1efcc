import { Link } from "react-router";
import type { Labels } from "#app/content/labels.ts";
import { siteConfig } from "#app/site.config.ts";

export function SiteFooter({ year, labels }: { year: number; labels: Labels }) {
  return (
    <footer className="site-footer">
      <p>
        © {year} {siteConfig.copyrightHolder}
      </p>
      <ul>
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
