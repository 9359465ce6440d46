/**
 * `${VAR}` and `${VAR:-default}` expansion in a server's command, args and env, done when the
 * server starts: the environment first, then the settings' `env` secrets. An undefined variable
 * with no default becomes "" and is reported, so the caller can warn and repeat it in errors.
 */
import type { McpServerConfig } from "./config.ts";

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface Expanded {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Variables that were referenced, unset, and had no default. */
  missing: string[];
}

/** Needs --allow-env for the variables referenced. */
export function expandServerConfig(
  cfg: McpServerConfig,
  secrets: Record<string, string>,
  lookupEnv: (name: string) => string | undefined = (n) => Deno.env.get(n),
): Expanded {
  const missing = new Set<string>();
  const expand = (text: string) =>
    text.replace(VAR, (_m, name: string, fallback: string | undefined) => {
      const value = lookupEnv(name) ?? secrets[name];
      if (value !== undefined && value !== "") return value;
      if (fallback !== undefined) return fallback;
      if (value === undefined) missing.add(name);
      return "";
    });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(cfg.env)) env[k] = expand(v);
  return {
    command: expand(cfg.command),
    args: cfg.args.map(expand),
    env,
    missing: [...missing],
  };
}

export function missingVarsWarning(server: string, missing: string[]): string {
  const vars = missing.map((m) => "${" + m + "}").join(", ");
  return `MCP server '${server}': ${vars} ${missing.length === 1 ? "is" : "are"} not set ` +
    `(expanded to ""); set ${missing.length === 1 ? "it" : "them"} in the environment or with ` +
    `'pflow settings set-env'`;
}
