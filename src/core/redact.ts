/**
 * Redaction, the one module used everywhere a value leaves pflow (traces, errors, stored params,
 * logs, CLI and MCP responses). By key: whole words of the key name such as `password`, `token`,
 * `secret`, `api_key` (so `author` is not a secret). By value: every value that came from settings
 * `env` is replaced wherever it appears, even inside a longer string.
 */

export const REDACTED = "<redacted>";

const SECRET_WORDS = new Set([
  "password",
  "passwd",
  "pwd",
  "token",
  "secret",
  "apikey",
  "authorization",
  "auth",
  "credential",
  "credentials",
  "cookie",
  "privatekey",
  "accesskey",
  "sessionid",
  "bearer",
]);
const SECRET_PAIRS = new Set([
  "api_key",
  "private_key",
  "access_key",
  "client_secret",
  "session_id",
]);

/** Keys repeat across every node of a run: remember the verdict (bounded, cleared when full). */
const keyVerdicts = new Map<string, boolean>();

/** `GITHUB_TOKEN`, `apiKey`, `x-api-key`, `Authorization` → true; `author` → false. */
export function isSecretKey(key: string): boolean {
  let verdict = keyVerdicts.get(key);
  if (verdict === undefined) {
    if (keyVerdicts.size >= 10_000) keyVerdicts.clear();
    verdict = hasSecretWord(key);
    keyVerdicts.set(key, verdict);
  }
  return verdict;
}

function hasSecretWord(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    if (SECRET_WORDS.has(words[i])) return true;
    if (i + 1 < words.length && SECRET_PAIRS.has(`${words[i]}_${words[i + 1]}`)) return true;
  }
  return false;
}

/** Values shorter than this are not redacted by value: they would match everywhere. */
const MIN_SECRET_LENGTH = 4;

export class Redactor {
  readonly #values: string[];

  constructor(secretValues: Iterable<string> = []) {
    // Longest first, so a secret containing another is replaced whole.
    this.#values = [...new Set(secretValues)].filter((v) => v.length >= MIN_SECRET_LENGTH)
      .sort((a, b) => b.length - a.length);
  }

  static fromEnv(env: Record<string, string>): Redactor {
    return new Redactor(Object.values(env));
  }

  text(s: string): string {
    let out = s;
    for (const v of this.#values) if (out.includes(v)) out = out.split(v).join(REDACTED);
    return out;
  }

  /** A deep copy of `value` with secret keys masked and secret values replaced. */
  value<T>(value: T): T {
    return this.#walk(value) as T;
  }

  #walk(value: unknown): unknown {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.#walk(v));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        out[k] = isSecretKey(k) && v !== null && v !== "" ? REDACTED : this.#walk(v);
      }
      return out;
    }
    return value;
  }
}
