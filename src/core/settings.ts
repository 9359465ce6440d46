/**
 * Settings and secrets: `PFLOW_HOME/settings.json`, written atomically with mode 0600.
 * `env` holds secrets that reach runs as environment (never overriding a variable already set).
 * Needs --allow-read/--allow-write on PFLOW_HOME.
 */
import { inheritedEnv } from "./inherited_env.ts";
import { PflowError } from "./errors.ts";
import { writeFileAtomic } from "./atomic.ts";
import { homePaths } from "./paths.ts";

export interface Settings {
  env: Record<string, string>;
  [option: string]: unknown;
}

export async function loadSettings(home: string): Promise<Settings> {
  const path = homePaths(home).settings;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return { env: {} };
    throw err;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new PflowError("parse", `settings.json is not valid JSON: ${(err as Error).message}`, {
      suggestion: `Fix or delete ${path}`,
    });
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new PflowError("parse", "settings.json must hold a JSON object", {
      suggestion: `Fix or delete ${path}`,
    });
  }
  const settings = data as Settings;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(settings.env ?? {})) env[k] = String(v);
  return { ...settings, env };
}

export async function saveSettings(home: string, settings: Settings): Promise<void> {
  await writeFileAtomic(homePaths(home).settings, JSON.stringify(settings, null, 2) + "\n", {
    mode: 0o600,
  });
}

/**
 * The environment a child process gets: the process env, plus settings secrets for keys not
 * already set, plus explicit overrides (which win).
 */
export function childEnv(
  secrets: Record<string, string>,
  overrides: Record<string, string> = {},
): Record<string, string> {
  const env = inheritedEnv();
  for (const [k, v] of Object.entries(secrets)) if (!(k in env)) env[k] = v;
  return { ...env, ...overrides };
}
