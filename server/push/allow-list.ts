// Where the server may POST a push message (decision 060): only
// to the real push services, never to an address a visitor chose. An
// endpoint is checked when it is subscribed and again before every send:
//
// - https: on a known push service's host (FCM, Mozilla, Apple, Windows), or
//   on a host:port PUSH_ENDPOINT_HOSTS lists; http: only on a listed loopback
//   address (a test's push service);
// - written plainly: no user info, no IP literal (unless listed as such), no
//   other spelling of a host (a decimal, octal or hex IPv4 is normalised by
//   URL parsing, and refused because it differs from what was written), no
//   port but the default (unless listed with it);
// - every address the name resolves to public: no loopback, private,
//   link-local (metadata), carrier-grade NAT, multicast or reserved address,
//   IPv4-mapped or NAT64 forms of them included. The send connects to the
//   address checked (no second lookup, so no DNS rebinding between check
//   and connect), and never follows a redirect.
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** Hosts of the push services browsers use: exact names, and suffixes (".x" matches a.x). */
const KNOWN_HOSTS = ["fcm.googleapis.com", "updates.push.services.mozilla.com"];
const KNOWN_SUFFIXES = [".push.services.mozilla.com", ".push.apple.com", ".notify.windows.com"];

/** Longest endpoint kept (browsers' are a few hundred characters). */
export const MAX_ENDPOINT_LENGTH = 1024;

export interface ExtraHost {
  /** Lower case; an IPv6 literal without brackets. */
  host: string;
  /** "" for the scheme's default. */
  port: string;
}

/**
 * PUSH_ENDPOINT_HOSTS: a comma list of host[:port] ([v6]:port for IPv6).
 * Throws with one line on a malformed entry.
 */
export function parseEndpointHosts(value: string | undefined): ExtraHost[] {
  if (!value?.trim()) return [];
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      let url: URL;
      try {
        url = new URL(`https://${entry}/`);
      } catch {
        throw new Error(`PUSH_ENDPOINT_HOSTS: "${entry}" is not a host or host:port`);
      }
      if (url.username || url.password || url.host.toLowerCase() !== entry.toLowerCase())
        throw new Error(`PUSH_ENDPOINT_HOSTS: "${entry}" is not a host or host:port`);
      return { host: bare(url.hostname), port: url.port };
    });
}

/** An IPv6 literal without its brackets; names lower case. */
function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, "").toLowerCase();
}

// ---- Addresses -----------------------------------------------------------

const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local: cloud metadata (169.254.169.254) lives here
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["2001::", 23], // IETF protocol assignments (Teredo, ORCHID…)
  ["2002::", 16], // 6to4: an IPv4 address inside
  ["fc00::", 7], // unique local (fd00:ec2::254 is a metadata address)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, "ipv6");

/** The IPv4 address inside an IPv4-mapped, -compatible or NAT64 IPv6 address, else null. */
function embeddedV4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower)?.[1];
  if (dotted) return dotted;
  const hex = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const high = Number.parseInt(hex[1] ?? "0", 16);
  const low = Number.parseInt(hex[2] ?? "0", 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether `address` (an IP literal) is one the public internet routes to a host. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NOT_PUBLIC.check(address, "ipv4");
  if (family !== 6) return false;
  const v4 = embeddedV4(address);
  if (v4 !== null) return isPublicAddress(v4);
  // ::ffff:0:0/96 and 64:ff9b::/96 in any other spelling: refused outright.
  if (/^(?:0*:)*:?ffff:|^64:ff9b:/i.test(address)) return false;
  return !NOT_PUBLIC.check(address, "ipv6");
}

export function isLoopbackAddress(address: string): boolean {
  const v4 = isIP(address) === 6 ? (embeddedV4(address) ?? address) : address;
  return isIP(v4) === 4 ? v4.startsWith("127.") : v4 === "::1";
}

// ---- Endpoints -----------------------------------------------------------

/** What an endpoint's URL allows: where to connect, or why not. */
export type EndpointCheck =
  | {
      ok: true;
      url: URL;
      /** The host to resolve, or null when it is a listed IP literal (connected to as is). */
      name: string | null;
      /** A listed IP literal, else null. */
      address: string | null;
    }
  | { ok: false; reason: string };

/** The raw authority as written (between "//" and the path), or null. */
function writtenAuthority(endpoint: string): string | null {
  return /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(endpoint)?.[1] ?? null;
}

function isKnownHost(host: string): boolean {
  return KNOWN_HOSTS.includes(host) || KNOWN_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/**
 * The checks that need no lookup: scheme, spelling, host and port. A listed
 * host with no port allows the default port only; one with a port, that port.
 */
export function checkEndpointUrl(endpoint: string, extraHosts: readonly ExtraHost[]): EndpointCheck {
  if (endpoint.length > MAX_ENDPOINT_LENGTH)
    return { ok: false, reason: `the endpoint is longer than ${MAX_ENDPOINT_LENGTH} characters` };
  if (/[\s\\]/.test(endpoint)) return { ok: false, reason: "the endpoint is not a URL" };
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { ok: false, reason: "the endpoint is not a URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, reason: "the endpoint must be an https: URL" };
  const authority = writtenAuthority(endpoint);
  if (authority === null || authority.includes("@") || url.username || url.password)
    return { ok: false, reason: "the endpoint must not carry a user name or password" };
  // What was written must be what URL parsing made of it: 2130706433, 0x7f.1,
  // 0177.0.0.1 and a trailing-dot or percent-encoded spelling are refused here.
  if (authority.toLowerCase() !== url.host.toLowerCase())
    return { ok: false, reason: "the endpoint's host must be written plainly" };
  const host = bare(url.hostname);
  const listed = extraHosts.find((extra) => extra.host === host && extra.port === url.port);
  const literal = isIP(host) !== 0;
  if (!listed) {
    if (literal) return { ok: false, reason: "the endpoint must name a push service, not an IP address" };
    if (!isKnownHost(host)) return { ok: false, reason: "the endpoint is not a known push service" };
    if (url.port !== "")
      return { ok: false, reason: "the endpoint must use the push service's default port" };
  }
  if (url.protocol === "http:" && !(listed && literal && isLoopbackAddress(host)))
    return { ok: false, reason: "the endpoint must be an https: URL" };
  return { ok: true, url, name: literal ? null : host, address: literal ? host : null };
}

export interface ResolvedEndpoint {
  url: URL;
  /** The address checked: the one to connect to. */
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Thrown when an endpoint's name cannot be resolved (a send retries later). */
export class LookupError extends Error {
  /** Not "no such name" but a failure that may pass (EAI_AGAIN, a timeout). */
  readonly temporary: boolean;
  constructor(message: string, code?: string) {
    super(message);
    this.temporary = code !== undefined && code !== "ENOTFOUND" && code !== "ENODATA";
  }
}

/**
 * The whole check: the URL's, then the name's addresses, every one of which
 * must be public (a listed IP literal is the operator's choice and is not
 * looked up). Returns the address to connect to, or why not.
 */
export async function resolveEndpoint(
  endpoint: string,
  extraHosts: readonly ExtraHost[],
  resolve: Resolver = systemResolver,
): Promise<{ ok: true; endpoint: ResolvedEndpoint } | { ok: false; reason: string }> {
  const checked = checkEndpointUrl(endpoint, extraHosts);
  if (!checked.ok) return checked;
  if (checked.address !== null) {
    return {
      ok: true,
      endpoint: { url: checked.url, address: checked.address, family: isIP(checked.address) as 4 | 6 },
    };
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolve(checked.name ?? "");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new LookupError(`cannot resolve ${checked.name}: ${code ?? error}`, code ?? "EAI_FAIL");
  }
  if (addresses.length === 0) throw new LookupError(`cannot resolve ${checked.name}: no address`);
  if (!addresses.every((entry) => isPublicAddress(entry.address)))
    return { ok: false, reason: "the endpoint's host resolves to a private or local address" };
  const first = addresses[0] as { address: string; family: number };
  return {
    ok: true,
    endpoint: { url: checked.url, address: first.address, family: first.family === 6 ? 6 : 4 },
  };
}
