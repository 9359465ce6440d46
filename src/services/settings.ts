/**
 * Settings and secrets as a user asks for them: show, set-env, unset-env, list-env. Values are
 * masked unless explicitly asked for; each result has ONE text formatter (CLI and MCP server).
 * Needs --allow-read/--allow-write on PFLOW_HOME.
 */
import { PflowError } from "../core/errors.ts";
import { homePaths } from "../core/paths.ts";
import { REDACTED } from "../core/redact.ts";
import { loadSettings, saveSettings } from "../core/settings.ts";

export const MASK = "********";
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checkKey(key: string): string {
  if (typeof key !== "string" || !ENV_KEY.test(key)) {
    throw new PflowError(
      "invalid_params",
      `Invalid environment variable name ${JSON.stringify(key)}`,
      {
        suggestion:
          "Use letters, digits and underscores, not starting with a digit (e.g. GITHUB_TOKEN)",
      },
    );
  }
  return key;
}

export interface SettingsShowResult {
  path: string;
  /** Settings with every `env` value masked. */
  settings: Record<string, unknown> & { env: Record<string, string> };
}

export async function showSettingsService(home: string): Promise<SettingsShowResult> {
  const settings = await loadSettings(home);
  const env = Object.fromEntries(Object.keys(settings.env).sort().map((k) => [k, MASK]));
  return { path: homePaths(home).settings, settings: { ...settings, env } };
}

export function formatSettingsShow(r: SettingsShowResult): string {
  return `Settings (${r.path}):\n${JSON.stringify(r.settings, null, 2)}`;
}

export interface EnvChangeResult {
  key: string;
  action: "set" | "unset";
  /** For unset: whether the key was there. */
  changed: boolean;
}

export async function setEnvService(
  home: string,
  key: string,
  value: string,
): Promise<EnvChangeResult> {
  checkKey(key);
  if (typeof value !== "string") {
    throw new PflowError("invalid_params", `The value of ${key} must be a string`);
  }
  const settings = await loadSettings(home);
  settings.env[key] = value;
  await saveSettings(home, settings);
  return { key, action: "set", changed: true };
}

export async function unsetEnvService(home: string, key: string): Promise<EnvChangeResult> {
  checkKey(key);
  const settings = await loadSettings(home);
  const changed = key in settings.env;
  if (changed) {
    delete settings.env[key];
    await saveSettings(home, settings);
  }
  return { key, action: "unset", changed };
}

export function formatEnvChange(r: EnvChangeResult): string {
  if (r.action === "set") return `Set ${r.key} (stored in settings.json, mode 0600)`;
  return r.changed ? `Removed ${r.key}` : `${r.key} was not set`;
}

export interface EnvListResult {
  masked: boolean;
  env: { key: string; value: string }[];
}

export async function listEnvService(
  home: string,
  opts: { showValues?: boolean } = {},
): Promise<EnvListResult> {
  const settings = await loadSettings(home);
  return {
    masked: !opts.showValues,
    env: Object.keys(settings.env).sort().map((key) => ({
      key,
      value: opts.showValues ? settings.env[key] : MASK,
    })),
  };
}

export function formatEnvList(r: EnvListResult): string {
  if (r.env.length === 0) {
    return "No secrets set.\n  → Add one with 'pflow settings set-env KEY VALUE'";
  }
  const lines = r.env.map((e) => `  ${e.key}=${e.value}`);
  if (r.masked) lines.push("  (values masked; --show-values prints them)");
  return lines.join("\n");
}

/** Marker used by other modules when a value was redacted, re-exported for formatters. */
export { REDACTED };
