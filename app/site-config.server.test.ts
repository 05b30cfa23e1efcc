import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { expect, test } from "vitest";
import { demoSite } from "#app/site.config.ts";
import { loadSiteConfig, parseSiteConfig, SiteConfigError } from "#app/site-config.server.ts";

const EXAMPLE = path.resolve(import.meta.dirname, "../examples/site.example.toml");

/** The one line a bad file is refused with. */
function refusal(source: string, file = "site.toml"): string {
  try {
    parseSiteConfig(source, file);
  } catch (error) {
    expect(error).toBeInstanceOf(SiteConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error("the file was accepted");
}

test("the example file documents every key and says the demo's identity", () => {
  const source = readFileSync(EXAMPLE, "utf8");
  expect(parseSiteConfig(source, EXAMPLE)).toEqual(demoSite);
  // The contact link is commented out there: uncommented, it is valid too.
  const withContact = source.replace(/^# (\[contact\]|url = "mailto|label = )/gm, "$1");
  const parsed = parseSiteConfig(withContact, EXAMPLE);
  expect(parsed.contact?.url).toBe("mailto:editor@example.org");
  expect(Object.keys(parseToml(withContact)).sort()).toEqual([...Object.keys(demoSite), "contact"].sort());
});

test("a key left out keeps the demo's value; JSON and TOML say the same", () => {
  const toml = parseSiteConfig(
    'name = "Vani"\ntimeZone = "Europe/London"\n[contact]\nurl = "https://vani.example/contact"\n',
    "site.toml",
  );
  const json = parseSiteConfig(
    JSON.stringify({
      name: "Vani",
      timeZone: "Europe/London",
      contact: { url: "https://vani.example/contact" },
    }),
    "site.JSON",
  );
  expect(toml).toEqual(json);
  expect(toml).toEqual({
    ...demoSite,
    name: "Vani",
    timeZone: "Europe/London",
    contact: { url: "https://vani.example/contact" },
  });
  expect(parseSiteConfig("", "empty.toml")).toEqual(demoSite);
});

test("a bad value is one line naming the key and what is wrong", () => {
  expect(
    refusal(
      '[[social]]\nnetwork = "X"\nurl = "https://x.com/"\n[[social]]\nnetwork = "Y"\nurl = "ftp://y"\n',
    ),
  ).toBe("SITE_CONFIG site.toml: social[1].url: must be an https:// or http:// URL");
  expect(refusal('timeZone = "Asia/Mumbai"')).toBe(
    "SITE_CONFIG site.toml: timeZone: must be an IANA time zone such as Asia/Kolkata",
  );
  expect(refusal('name = ""')).toBe("SITE_CONFIG site.toml: name: must not be empty");
  expect(refusal("name = 7")).toBe("SITE_CONFIG site.toml: name: must be text");
  expect(refusal('[logo]\nsrc = "/images/a.svg"\nheight = 40')).toBe(
    "SITE_CONFIG site.toml: logo.width: missing",
  );
  expect(refusal('[logo]\nsrc = "//evil.example/a.svg"\nwidth = 40\nheight = 40')).toBe(
    "SITE_CONFIG site.toml: logo.src: must be a path on the site (/images/…) or an https:// URL",
  );
  expect(refusal('[defaultImage]\nsrc = "http://cdn.example/a.png"\nwidth = 8\nheight = 8')).toBe(
    "SITE_CONFIG site.toml: defaultImage.src: must be a path on the site (/images/…) or an https:// URL",
  );
  expect(refusal('[defaultImage]\nsrc = "/a.png"\nwidth = 1.5\nheight = 2')).toBe(
    "SITE_CONFIG site.toml: defaultImage.width: must be a whole number of pixels",
  );
  expect(refusal('[contact]\nurl = "javascript:alert(1)"')).toBe(
    "SITE_CONFIG site.toml: contact.url: must be a mailto: address or an https:// or http:// URL",
  );
  expect(refusal('[colours]\ntheme = "red"\nthemeDark = "#000000"\nbackground = "#ffffff"')).toBe(
    "SITE_CONFIG site.toml: colours.theme: must be a colour written #rrggbb",
  );
  expect(refusal('about = "A site"')).toBe("SITE_CONFIG site.toml: about: must be a table of keys");
  // Two problems: both, on the one line.
  expect(refusal('name = ""\ncopyrightHolder = 1')).toBe(
    "SITE_CONFIG site.toml: name: must not be empty; copyrightHolder: must be text",
  );
});

test("an unknown key (a typo) is refused, at the top and inside a table", () => {
  expect(refusal('nmae = "Vani"')).toMatch(
    /^SITE_CONFIG site\.toml: nmae: unknown key \(the keys are name, tagline, teacherName, logo, about, social, /,
  );
  expect(refusal('[contact]\nurl = "mailto:a@b.org"\nlabel = { english = "Mail", gujarati = "x" }')).toBe(
    "SITE_CONFIG site.toml: contact.label.gujarati: unknown key",
  );
});

test("a file that cannot be read or parsed is one line too", () => {
  expect(refusal('name = "Vani"\nsocial = [', "site.toml")).toMatch(
    /^SITE_CONFIG site\.toml: not valid TOML: .+ \(line 2\)$/,
  );
  expect(refusal('{"name": "Vani",}', "site.json")).toMatch(/^SITE_CONFIG site\.json: not valid JSON: /);
  expect(refusal('["Vani"]', "site.json")).toMatch(/^SITE_CONFIG site\.json: must hold a table of keys/);
  expect(refusal('name = "Vani"', "site.yaml")).toBe("SITE_CONFIG site.yaml: must end in .json or .toml");
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-site-"));
  try {
    expect(() => loadSiteConfig(path.join(dir, "none.toml"))).toThrow(
      `SITE_CONFIG ${path.join(dir, "none.toml")}: cannot read it (no such file)`,
    );
    const file = path.join(dir, "site.toml");
    writeFileSync(file, 'name = "Vani"\n');
    const loaded = loadSiteConfig(file);
    expect(loaded.config.name).toBe("Vani");
    expect(loaded.file).toBe(file);
    // The version follows the identity, not the file's bytes.
    writeFileSync(file, '# a comment\nname = "Vani"\n');
    expect(loadSiteConfig(file).version).toBe(loaded.version);
    writeFileSync(file, 'name = "Vani!"\n');
    expect(loadSiteConfig(file).version).not.toBe(loaded.version);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(loadSiteConfig(undefined)).toMatchObject({ config: demoSite, file: null });
});
