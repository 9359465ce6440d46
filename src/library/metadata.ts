/**
 * Run statistics of saved workflows, kept in their frontmatter: count, last run (time, success,
 * status, duration, params with secrets redacted), running average duration and the last few
 * runs. Each update is a read-modify-write under the workflow's lock file, so concurrent runs
 * (processes or promises) never lose an update, and the write itself is atomic.
 * Needs --allow-read and --allow-write on PFLOW_HOME.
 */
import { writeFileAtomic } from "../core/atomic.ts";
import { serializeFrontmatter, splitFrontmatter } from "../core/markdown.ts";
import { Redactor } from "../core/redact.ts";
import { loadSettings } from "../core/settings.ts";
import { lockPath, notFound, workflowPath } from "./store.ts";
import { withLock } from "./_lock.ts";

/** What a run tells the statistics (a subset of the runtime's RunResult). */
export interface RunSummary {
  success: boolean;
  status?: string;
  duration_ms: number;
}

export interface RecentRun {
  timestamp: string;
  success: boolean;
  status: string;
  duration_ms: number;
}

export interface RunStatistics {
  execution_count: number;
  last_execution_timestamp?: string;
  last_execution_success?: boolean;
  last_execution_status?: string;
  last_execution_duration_ms?: number;
  average_execution_duration_ms?: number;
  last_execution_params?: Record<string, unknown>;
  recent_runs: RecentRun[];
}

/** How many runs `recent_runs` keeps. */
export const RECENT_RUNS = 10;

/** The statistics in a workflow's metadata (zeros when it never ran). */
export function runStatistics(metadata: Record<string, unknown>): RunStatistics {
  const num = (v: unknown) => typeof v === "number" && Number.isFinite(v) ? v : undefined;
  const recent = Array.isArray(metadata.recent_runs) ? metadata.recent_runs as RecentRun[] : [];
  return {
    execution_count: num(metadata.execution_count) ?? 0,
    last_execution_timestamp: typeof metadata.last_execution_timestamp === "string"
      ? metadata.last_execution_timestamp
      : undefined,
    last_execution_success: typeof metadata.last_execution_success === "boolean"
      ? metadata.last_execution_success
      : undefined,
    last_execution_status: typeof metadata.last_execution_status === "string"
      ? metadata.last_execution_status
      : undefined,
    last_execution_duration_ms: num(metadata.last_execution_duration_ms),
    average_execution_duration_ms: num(metadata.average_execution_duration_ms),
    last_execution_params: typeof metadata.last_execution_params === "object" &&
        metadata.last_execution_params !== null
      ? metadata.last_execution_params as Record<string, unknown>
      : undefined,
    recent_runs: recent,
  };
}

/** The metadata after one more run. Pure: the caller holds the lock. */
export function withRun(
  metadata: Record<string, unknown>,
  result: RunSummary,
  params: Record<string, unknown>,
  at: Date = new Date(),
): Record<string, unknown> {
  const stats = runStatistics(metadata);
  const count = stats.execution_count + 1;
  const duration = Math.max(0, Math.round(result.duration_ms));
  const previousAvg = stats.average_execution_duration_ms ?? duration;
  const average = Math.round(((previousAvg * (count - 1)) + duration) / count);
  const status = result.status ?? (result.success ? "success" : "failed");
  const timestamp = at.toISOString();
  return {
    ...metadata,
    execution_count: count,
    last_execution_timestamp: timestamp,
    last_execution_success: result.success,
    last_execution_status: status,
    last_execution_duration_ms: duration,
    average_execution_duration_ms: average,
    last_execution_params: params,
    recent_runs: [
      { timestamp, success: result.success, status, duration_ms: duration },
      ...stats.recent_runs,
    ]
      .slice(0, RECENT_RUNS),
  };
}

/**
 * Records one run of saved workflow `name`. Params are redacted (secret keys, and every value
 * from settings `env`) before they are stored.
 * @throws PflowError `not_found` when the workflow is not saved; SecurityError for a hostile name
 */
export async function recordRun(
  home: string,
  name: string,
  result: RunSummary,
  params: Record<string, unknown> = {},
  opts: { redactor?: Redactor } = {},
): Promise<RunStatistics> {
  const path = workflowPath(home, name);
  const redactor = opts.redactor ?? Redactor.fromEnv((await loadSettings(home)).env);
  const safeParams = redactor.value(params);
  if (!(await Deno.stat(path).then(() => true, () => false))) {
    notFound(home, name, "workflow");
  }
  return await withLock(lockPath(home, name), async () => {
    let text: string;
    try {
      text = await Deno.readTextFile(path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return notFound(home, name, "workflow");
      throw err;
    }
    const { metadata, body } = splitFrontmatter(text);
    const updated = withRun(metadata, result, safeParams);
    await writeFileAtomic(path, serializeFrontmatter(updated, body));
    return runStatistics(updated);
  });
}
