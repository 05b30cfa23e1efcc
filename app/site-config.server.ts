// The site's identity at run time (decision 055): read at start
// from the file SITE_CONFIG names (JSON or TOML, by its extension), validated
// key by key, the demo's value (app/site.config.ts) for every key it leaves
// out. A bad file is one line naming the key and what is wrong; start-up
// stops on it, a reload (SIGHUP) keeps the identity it had.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { z } from "zod";
import { demoSite } from "#app/site.config.ts";

const HTTP_URL = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;
/** Images from elsewhere: https only (the pages' CSP allows https: images, and http would be mixed content). */
const HTTPS_URL = /^https:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;
const MAILTO = /^mailto:[^\s@/]+@[^\s@/]+\.[^\s@/]+$/i;
/** A path on this site ("/images/logo.svg"), never protocol-relative. */
const SITE_PATH = /^\/(?!\/)\S*$/;

/** zod's error option: "missing" for a key left out, else what the value must be. */
const need = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "missing" : what),
});

const TABLE = need("must be a table of keys");

const text = (max: number) =>
  z
    .string(need("must be text"))
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`);
const httpUrl = z
  .string(need("must be an https:// or http:// URL"))
  .regex(HTTP_URL, "must be an https:// or http:// URL");
const image = z
  .string(need("must be a path on the site (/images/…) or an https:// URL"))
  .refine(
    (value) => SITE_PATH.test(value) || HTTPS_URL.test(value),
    "must be a path on the site (/images/…) or an https:// URL",
  );
const pixels = z
  .number(need("must be a whole number of pixels"))
  .int("must be a whole number of pixels")
  .min(1, "must be at least 1")
  .max(4000, "must be at most 4000");
const colour = z
  .string(need("must be a colour written #rrggbb"))
  .regex(/^#[0-9a-f]{6}$/i, "must be a colour written #rrggbb");
const timeZone = z.string(need("must be an IANA time zone such as Asia/Kolkata")).refine((value) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return value.length > 0;
  } catch {
    return false;
  }
}, "must be an IANA time zone such as Asia/Kolkata");

const SiteSchema = z.strictObject({
  name: text(60),
  tagline: text(200),
  /** Who the quotes are by when a post names no one (the post's JSON-LD author, the about link). */
  teacherName: text(100),
  logo: z.strictObject({ src: image, width: pixels, height: pixels, alt: text(100).optional() }, TABLE),
  about: z.strictObject(
    {
      heading: text(60),
      teaser: text(2000),
      readMoreUrl: httpUrl,
      readMoreLabel: text(60),
      /** The box on the home in Hindi and in Marathi (/?lang=hi, /?lang=mr, decision 067); a key left out is the one above. */
      hindi: z
        .strictObject(
          { heading: text(60).optional(), teaser: text(2000).optional(), readMoreLabel: text(60).optional() },
          TABLE,
        )
        .optional(),
      marathi: z
        .strictObject(
          { heading: text(60).optional(), teaser: text(2000).optional(), readMoreLabel: text(60).optional() },
          TABLE,
        )
        .optional(),
    },
    TABLE,
  ),
  social: z
    .array(z.strictObject({ network: text(40), url: httpUrl }, TABLE), need("must be a list of links"))
    .max(12, "must hold at most 12 links"),
  copyrightHolder: text(100),
  /** IANA time zone of every displayed date and of the quote of the day. */
  timeZone,
  defaultImage: z.strictObject({ src: image, width: pixels, height: pixels }, TABLE),
  /** The browser's UI colour (light and dark) and the installed app's splash background (manifest). */
  colours: z.strictObject({ theme: colour, themeDark: colour, background: colour }, TABLE),
  /** The frame's contact link (footer): a mail address or a page. */
  contact: z
    .strictObject(
      {
        url: z
          .string(need("must be a mailto: address or an https:// or http:// URL"))
          .refine(
            (value) => MAILTO.test(value) || HTTP_URL.test(value),
            "must be a mailto: address or an https:// or http:// URL",
          ),
        label: z
          .strictObject(
            { english: text(40).optional(), hindi: text(40).optional(), marathi: text(40).optional() },
            TABLE,
          )
          .optional(),
      },
      TABLE,
    )
    .optional(),
});

export type SiteConfig = z.output<typeof SiteSchema>;

/** Every key optional: what the file leaves out is the demo's. */
const FileSchema = SiteSchema.partial();

/** The keys a file may hold, said when it holds another. */
const KEYS = Object.keys(SiteSchema.shape).join(", ");

export class SiteConfigError extends Error {}

/** "social[1].url" from zod's path. */
function keyOf(at: readonly PropertyKey[]): string {
  return at.reduce<string>(
    (key, part) =>
      typeof part === "number" ? `${key}[${part}]` : key ? `${key}.${String(part)}` : String(part),
    "",
  );
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") {
    const where = keyOf(issue.path);
    const names = issue.keys.map((key) => (where ? `${where}.${key}` : key)).join(", ");
    return `${names}: unknown key${issue.keys.length > 1 ? "s" : ""}${where ? "" : ` (the keys are ${KEYS})`}`;
  }
  return `${keyOf(issue.path) || "(the file)"}: ${issue.message}`;
}

/** A file's identity: its text parsed by its extension and validated, over the demo's values. */
export function parseSiteConfig(source: string, file: string): SiteConfig {
  const where = `SITE_CONFIG ${file}`;
  const extension = path.extname(file).toLowerCase();
  let raw: unknown;
  try {
    if (extension === ".json") raw = JSON.parse(source);
    else if (extension === ".toml") raw = parseToml(source);
    else throw new SiteConfigError(`${where}: must end in .json or .toml`);
  } catch (error) {
    if (error instanceof SiteConfigError) throw error;
    const message = (error as Error).message.split("\n")[0]?.replace(/^Invalid TOML document: /, "");
    const at = (error as { line?: number }).line;
    throw new SiteConfigError(
      `${where}: not valid ${extension === ".json" ? "JSON" : "TOML"}: ${message}${at ? ` (line ${at})` : ""}`,
    );
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw new SiteConfigError(`${where}: must hold a table of keys (${KEYS})`);
  const result = FileSchema.safeParse(raw);
  if (!result.success) throw new SiteConfigError(`${where}: ${result.error.issues.map(describe).join("; ")}`);
  const given = Object.fromEntries(Object.entries(result.data).filter(([, value]) => value !== undefined));
  return { ...demoSite, ...given };
}

/** A short hash of the identity: cached pages are valid for one (server/app.ts). */
export function siteVersionOf(config: SiteConfig): string {
  return createHash("sha256").update(JSON.stringify(config)).digest("base64url").slice(0, 12);
}

export interface LoadedSite {
  config: SiteConfig;
  version: string;
  /** The file it came from; null for the demo's identity. */
  file: string | null;
}

/** SITE_CONFIG's identity, or the demo's when it is unset; a bad file throws SiteConfigError (one line). */
export function loadSiteConfig(file: string | undefined): LoadedSite {
  if (!file) return { config: demoSite, version: siteVersionOf(demoSite), file: null };
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SiteConfigError(
      `SITE_CONFIG ${file}: cannot read it (${code === "ENOENT" ? "no such file" : (code ?? (error as Error).message)})`,
    );
  }
  const config = parseSiteConfig(source, file);
  return { config, version: siteVersionOf(config), file };
}
