// What the PostgreSQL store says when the database cannot be reached: one
// line an operator can act on ("connection refused at 10.0.0.5:5432"), never
// a stack, never the password of the URL.

/** A read failed because the database cannot be reached just now (the server answers 503 meanwhile). */
export class PostgresUnavailableError extends Error {
  constructor(cause?: unknown) {
    super("the database is unavailable", { cause });
    this.name = "PostgresUnavailableError";
  }
}

interface ParsedUrl {
  user: string;
  password: string;
  host: string;
  port: string;
  database: string;
}

function parse(databaseUrl: string): ParsedUrl | null {
  try {
    const url = new URL(databaseUrl);
    const password = decodeURIComponent(url.password) || url.searchParams.get("password") || "";
    return {
      user: decodeURIComponent(url.username),
      password,
      // A socket directory may be given as ?host=/run/postgresql.
      host: url.hostname || url.searchParams.get("host") || "localhost",
      port: url.port || url.searchParams.get("port") || "5432",
      database: decodeURIComponent(url.pathname.slice(1)),
    };
  } catch {
    return null;
  }
}

/**
 * The URL without its password, for messages and logs:
 * postgres://sukti:secret@db:5432/site?password=x → postgres://sukti@db:5432/site.
 */
export function describePostgresUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    url.password = "";
    url.searchParams.delete("password");
    return url.toString();
  } catch {
    // Not a URL the parser takes: drop whatever sits between "user:" and "@".
    return databaseUrl.replace(/(\/\/[^/:@]*):[^@/]*@/, "$1@").replace(/([?&]password=)[^&]*/i, "$1…");
  }
}

/** The message with the password (and its URL-encoded form) blanked, on one line. */
function scrub(message: string, password: string): string {
  const [firstLine = ""] = message.split("\n");
  let line = firstLine.trim();
  for (const secret of new Set([password, encodeURIComponent(password)])) {
    if (secret.length > 0) line = line.split(secret).join("…");
  }
  return line;
}

type SystemError = Error & { code?: string; address?: string; port?: number; hostname?: string };

/** The first error of an AggregateError (Node tries every address of a name), else the error. */
function firstError(error: unknown): SystemError {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors[0] as SystemError;
  return error as SystemError;
}

/**
 * Why connecting to (or preparing) the database failed, in one line without
 * the password: e.g. "connection refused at 127.0.0.1:5433", "password
 * authentication failed for user "sukti"", "database "site" does not exist".
 */
export function describeConnectionError(error: unknown, databaseUrl: string): string {
  const url = parse(databaseUrl);
  const where = url ? `${url.host}:${url.port}` : "the database";
  const first = firstError(error);
  const code = (error as SystemError)?.code ?? first?.code;
  const address = first?.address?.includes(":") ? `[${first.address}]` : first?.address;
  const at = address ? `${address}${first.port ? `:${first.port}` : ""}` : where;
  const message = String(first?.message ?? error);
  let line: string;
  switch (code) {
    case "ECONNREFUSED":
      line = `connection refused at ${at}`;
      break;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      line = `host not found: ${first.hostname ?? url?.host ?? "?"}`;
      break;
    case "ETIMEDOUT":
      line = `no answer from ${at}`;
      break;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      line = `no route to ${at}`;
      break;
    case "ECONNRESET":
      line = `connection reset by ${at}`;
      break;
    case "ENOENT":
      // A Unix socket path that does not exist.
      line = `no server listening at ${where}`;
      break;
    default:
      if (/timeout|timed out/i.test(message)) line = `no answer from ${where} within 5 s`;
      else if (/^SASL: .*password must be a/.test(message) || /password must be a string/i.test(message)) {
        line = `the server at ${where} asks for a password and the URL gives none`;
      } else if (/Connection terminated unexpectedly/.test(message)) {
        line = `the server at ${where} closed the connection`;
      } else line = message || String(code ?? "unknown error");
  }
  return scrub(line, url?.password ?? "");
}

const UNAVAILABLE_SYSTEM_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENOENT",
]);

/**
 * Whether a failed query means the database cannot be reached (rather than a
 * bad query): network errors, the connection lost or timed out, the server
 * shutting down or starting (SQLSTATE class 08, 57P01–57P03), out of connections.
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof PostgresUnavailableError) return true;
  const first = firstError(error);
  const code = (error as SystemError)?.code ?? first?.code;
  if (typeof code === "string") {
    if (UNAVAILABLE_SYSTEM_CODES.has(code)) return true;
    if (/^08/.test(code) || /^57P0[123]$/.test(code) || code === "53300") return true;
  }
  const message = String(first?.message ?? "");
  return /Connection terminated|timeout exceeded when trying to connect|timeout expired|Client has encountered a connection error|Cannot use a pool after calling end/i.test(
    message,
  );
}
