/**
 * The part of pflow's environment a child process (shell node, MCP server) inherits, shaped so
 * that a sandboxed pflow can still start children: under a scoped `--allow-env=A,B` only the
 * granted variables of a well-known set are passed (reading the whole environment needs plain
 * `--allow-env`), and under a scoped `--allow-run=prog,…` the `LD_*` / `DYLD_*` loader variables
 * are dropped, because Deno refuses to spawn any child whose environment holds them.
 * Never prompts: permissions are only queried.
 */

/** Variables passed through under a scoped --allow-env, when granted. */
export const BASIC_ENV_VARS: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TERM",
  "TZ",
  "TMPDIR",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  // Windows
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
  "SYSTEMROOT",
  "TEMP",
  "TMP",
  "PATHEXT",
  "COMSPEC",
];

const LOADER_VAR = /^(LD_|DYLD_)/;

const granted = (desc: Deno.PermissionDescriptor) =>
  Deno.permissions.querySync(desc).state === "granted";

/** pflow's environment as a child should inherit it under the current permissions. */
export function inheritedEnv(): Record<string, string> {
  let env: Record<string, string>;
  if (granted({ name: "env" })) {
    env = Deno.env.toObject();
  } else {
    env = {};
    for (const name of BASIC_ENV_VARS) {
      if (!granted({ name: "env", variable: name })) continue;
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    }
  }
  if (!granted({ name: "run" })) {
    for (const key of Object.keys(env)) if (LOADER_VAR.test(key)) delete env[key];
  }
  return env;
}
