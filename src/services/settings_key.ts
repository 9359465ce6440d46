/**
 * One setting by key, for the MCP server's `settings_get` / `settings_set`: `env` (every secret,
 * masked), `env.NAME` (one secret, masked), or a top-level option. Secret values never leave:
 * a set only stores. Setting is limited to `env.NAME` (options are edited in settings.json).
 */
import { PflowError } from "../core/errors.ts";
import { type EnvChangeResult, MASK, setEnvService, showSettingsService } from "./settings.ts";

export interface SettingValue {
  key: string;
  found: boolean;
  value?: unknown;
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

function checkKey(key: string): string {
  if (!KEY.test(key) || key.split(".").some((p) => p === "__proto__" || p === "constructor")) {
    throw new PflowError(
      "invalid_params",
      `Invalid settings key ${JSON.stringify(key.slice(0, 80))}`,
      {
        suggestion: "Use 'env', 'env.NAME' or an option name",
      },
    );
  }
  return key;
}

export async function getSettingService(home: string, key: string): Promise<SettingValue> {
  checkKey(key);
  const { settings } = await showSettingsService(home);
  const [head, sub] = key.split(".");
  const top = Object.hasOwn(settings, head) ? settings[head] : undefined;
  let value: unknown = top;
  if (sub !== undefined) {
    value = top && typeof top === "object" && Object.hasOwn(top, sub)
      ? (top as Record<string, unknown>)[sub]
      : undefined;
  }
  if (value === undefined) {
    throw new PflowError("not_found", `No setting '${key}'`, {
      suggestion: head === "env"
        ? "Set it with settings_set"
        : "Known keys: " + Object.keys(settings).join(", "),
      details: { key },
    });
  }
  // showSettingsService masks env; mask again for keys read one by one (belt and braces).
  if (head === "env" && sub !== undefined) value = MASK;
  return { key, found: true, value };
}

export function formatSetting(r: SettingValue): string {
  return `${r.key} = ${typeof r.value === "string" ? r.value : JSON.stringify(r.value, null, 2)}`;
}

export async function setSettingService(
  home: string,
  key: string,
  value: string,
): Promise<EnvChangeResult> {
  checkKey(key);
  const name = key.startsWith("env.") ? key.slice(4) : key.includes(".") ? undefined : key;
  if (!name) {
    throw new PflowError(
      "invalid_params",
      `Only secrets can be set here ('env.NAME'), not '${key}'`,
      {
        suggestion: "Edit other options in PFLOW_HOME/settings.json",
      },
    );
  }
  return await setEnvService(home, name, value);
}
