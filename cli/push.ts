// `sukti push send` and `sukti push stats` (decision 060): the
// daily quote sent now to every subscriber of a language (resuming a send
// that was interrupted), and the subscribers per language and hour with the
// last send's result.
import { LANGUAGES, type Language } from "#app/content/languages.ts";
import { openServedStore } from "#app/data/open-store.server.ts";
import { openPushStore, type PushRun, pushDatabaseUrl } from "#app/data/push-store.server.ts";
import { ConfigError, parseEnv } from "#app/env.server.ts";
import { UserError } from "#cli/errors.ts";
import { createLogger } from "../server/logger.ts";
import { pushConfig } from "../server/push/config.ts";
import { cannotSend, PushSender } from "../server/push/sender.ts";

function settings(env: NodeJS.ProcessEnv) {
  try {
    const parsed = parseEnv(env);
    return { env: parsed, config: pushConfig(parsed) };
  } catch (error) {
    throw new UserError(error instanceof ConfigError ? error.message : (error as Error).message);
  }
}

export interface PushSendResult {
  database: string;
  run: PushRun;
  resumed: boolean;
}

/** Sends the quote of the day now; null when nobody ever subscribed (no push store yet). */
export async function pushSend(
  env: NodeJS.ProcessEnv,
  language: Language | "",
): Promise<PushSendResult | null> {
  const { env: parsed, config } = settings(env);
  const why = cannotSend(config);
  if (why) throw new UserError(`cannot send: ${why}`);
  const push = await openPushStore(pushDatabaseUrl(parsed.DATABASE_URL), { create: false });
  if (!push) return null;
  try {
    const content = await openServedStore(parsed.DATABASE_URL);
    try {
      const sender = new PushSender({ content, push, config, logger: createLogger(parsed.LOG_LEVEL) });
      const { run, resumed } = await sender.sendNow(language);
      return { database: push.description, run, resumed };
    } finally {
      await content.close();
    }
  } finally {
    await push.close();
  }
}

export function formatRun(run: PushRun): string {
  const what =
    run.kind === "manual"
      ? `sukti push send${run.language ? ` --language ${run.language}` : ""}`
      : "the daily send";
  const when = new Date(run.startedAt).toISOString().replace(/\.\d+Z$/, "Z");
  return `run ${run.id} (${what}, ${when}, ${run.state}): sent ${run.sent}, removed ${run.removed} (gone), retried ${run.retried}, failed ${run.failed}`;
}

export interface PushStats {
  database: string;
  subscribers: number;
  byLanguage: Record<string, { total: number; hours: Record<string, number> }>;
  lastSend: PushRun | null;
}

export async function pushStats(env: NodeJS.ProcessEnv): Promise<PushStats | null> {
  const { env: parsed } = settings(env);
  const push = await openPushStore(pushDatabaseUrl(parsed.DATABASE_URL), { create: false });
  if (!push) return null;
  try {
    const byLanguage: PushStats["byLanguage"] = {};
    let subscribers = 0;
    for (const language of LANGUAGES) byLanguage[language] = { total: 0, hours: {} };
    for (const row of await push.summary()) {
      const entry = byLanguage[row.language] ?? { total: 0, hours: {} };
      entry.total += row.count;
      entry.hours[`${String(row.hour).padStart(2, "0")}:00`] = row.count;
      byLanguage[row.language] = entry;
      subscribers += row.count;
    }
    return { database: push.description, subscribers, byLanguage, lastSend: await push.lastRun() };
  } finally {
    await push.close();
  }
}

export function formatPushStats(stats: PushStats): string {
  const lines = [`push subscribers in ${stats.database}: ${stats.subscribers}`];
  for (const [language, entry] of Object.entries(stats.byLanguage)) {
    const hours = Object.entries(entry.hours)
      .map(([hour, count]) => `${hour} ${count}`)
      .join(", ");
    lines.push(`  ${language}: ${entry.total}${hours ? ` (${hours})` : ""}`);
  }
  lines.push(stats.lastSend ? `last send: ${formatRun(stats.lastSend)}` : "last send: none yet");
  return `${lines.join("\n")}\n`;
}
