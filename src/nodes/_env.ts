/**
 * The environment of a child process: pflow's own environment, then the settings' secrets for
 * variables not already set (a user's explicit export wins over a stored secret), then the
 * node's `env` param, which wins over both because the workflow asked for it by name.
 */
import { inheritedEnv } from "../core/inherited_env.ts";

/** Needs --allow-env (reading the whole environment). */
export function childEnv(
  secrets: Record<string, string>,
  nodeEnv: Record<string, unknown> | undefined,
): Record<string, string> {
  const env = inheritedEnv();
  for (const [key, value] of Object.entries(secrets)) {
    if (!(key in env)) env[key] = value;
  }
  for (const [key, value] of Object.entries(nodeEnv ?? {})) {
    if (value === undefined || value === null) continue;
    env[key] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return env;
}
