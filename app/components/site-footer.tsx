import { Link } from "react-router";
import { siteConfig } from "#app/site.config.ts";

export function SiteFooter({ year }: { year: number }) {
  return (
    <footer className="site-footer">
      <p>
        © {year} {siteConfig.copyrightHolder}
      </p>
      <ul>
        <li>
          <Link to="/post/privacy-policy">Privacy Policy</Link>
        </li>
        <li>
          <Link to="/post/terms-conditions">Terms and Conditions</Link>
        </li>
      </ul>
    </footer>
  );
}
