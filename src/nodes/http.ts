/**
 * The `http` node: one HTTP request with fetch. JSON bodies are sent and parsed by content
 * type; a non-2xx status, a network failure or the timeout ends with the error action. Error
 * messages show the URL without its query string, where API keys often live. Needs --allow-net
 * for the host.
 */
import { permissionError } from "../core/errors.ts";
import type { NodeInterface } from "../core/node_interface.ts";
import { readParams } from "./_params.ts";
import { fail, type NodeContext, type NodeImpl, type NodeResult, ok } from "./types.ts";

/** How much of an error response's body a failure message quotes. */
const ERROR_BODY_CHARS = 200;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

const httpInterface: NodeInterface = {
  type: "http",
  description:
    "Make an HTTP request. Objects in body are sent as JSON; JSON responses are parsed. A non-2xx status ends with the error action.",
  params: {
    url: { type: "string", required: true, description: "The http:// or https:// URL" },
    method: {
      type: "string",
      default: "GET",
      enum: [...METHODS, ...METHODS.map((m) => m.toLowerCase())],
      description: "The HTTP method",
    },
    headers: { type: "object", description: "Request headers, name to value" },
    params: { type: "object", description: "Query parameters added to the URL" },
    body: {
      type: "any",
      description:
        "Request body: objects and arrays as JSON (content-type application/json), strings as-is",
    },
    timeout: {
      type: "number",
      default: 30,
      description: "Seconds to wait for the whole response",
    },
  },
  outputs: {
    response: {
      type: "any",
      description: "The response body: parsed when the content type is JSON, else text",
    },
    status_code: { type: "integer", description: "The HTTP status code" },
    headers: {
      type: "object",
      description: "Response headers, lower-case names to values",
    },
  },
  actions: ["default", "error"],
  category: "core",
};

async function runHttp(raw: Record<string, unknown>, ctx: NodeContext): Promise<NodeResult> {
  const checked = readParams(httpInterface, raw);
  if (!checked.ok) return fail(checked.error);
  const p = checked.values;
  const method = (p.method as string).toUpperCase();
  const timeout = p.timeout as number;
  if (timeout <= 0) return fail("http: param 'timeout' must be a positive number of seconds");

  let url: URL;
  try {
    url = new URL(p.url as string);
  } catch {
    return fail(`http: '${p.url}' is not a valid URL; give an absolute http:// or https:// URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return fail(`http: only http:// and https:// URLs are supported, got ${url.protocol}//`);
  }
  addQuery(url, p.params as Record<string, unknown> | undefined);
  const shown = `${method} ${url.origin}${url.pathname}`;

  const headers = new Headers();
  for (const [name, value] of Object.entries((p.headers as Record<string, unknown>) ?? {})) {
    if (value === undefined || value === null) continue;
    headers.set(name, typeof value === "string" ? value : String(value));
  }
  let body: string | undefined;
  if (p.body !== undefined && p.body !== null) {
    if (method === "GET" || method === "HEAD") {
      return fail(`http: a ${method} request cannot have a body; use POST, PUT or PATCH`);
    }
    if (typeof p.body === "string") {
      body = p.body;
    } else {
      body = JSON.stringify(p.body);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
  }

  const timer = new AbortController();
  const timeoutId = setTimeout(
    () => timer.abort(new DOMException("timeout", "TimeoutError")),
    timeout * 1000,
  );
  const signal = AbortSignal.any([ctx.signal, timer.signal]);
  try {
    const res = await fetch(url, { method, headers, body, signal });
    const text = await res.text();
    const outputs = {
      response: parseBody(res.headers.get("content-type"), text),
      status_code: res.status,
      headers: Object.fromEntries(res.headers),
    };
    if (!res.ok) {
      const snippet = text.length > ERROR_BODY_CHARS
        ? `${text.slice(0, ERROR_BODY_CHARS)}...`
        : text;
      return fail(
        `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""} from ${shown}${
          snippet.trim() ? `: ${snippet.trim()}` : ""
        }`,
        outputs,
      );
    }
    return ok(outputs);
  } catch (err) {
    if (timer.signal.aborted) return fail(`HTTP request timed out after ${timeout}s: ${shown}`);
    if (ctx.signal.aborted) return fail(`HTTP request was cancelled: ${shown}`);
    if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
      return fail(permissionError(err).message);
    }
    const reason = describeNetworkError(err).replaceAll(url.href, `${url.origin}${url.pathname}`);
    return fail(`HTTP request failed: ${shown}: ${reason}`);
  } finally {
    clearTimeout(timeoutId);
  }
}

/** Arrays become repeated keys (`?tag=a&tag=b`); objects are sent as JSON text. */
function addQuery(url: URL, params: Record<string, unknown> | undefined): void {
  for (const [key, value] of Object.entries(params ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      url.searchParams.append(key, typeof item === "object" ? JSON.stringify(item) : String(item));
    }
  }
}

/** JSON when the server says so (application/json, application/problem+json…) and it parses. */
function parseBody(contentType: string | null, text: string): unknown {
  if (!contentType || !/[/+]json\b/i.test(contentType) || text.trim() === "") return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** fetch says "fetch failed"; the useful part (refused, DNS, TLS) is in the cause chain. */
function describeNetworkError(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    if (current.message !== "fetch failed" && !parts.includes(current.message)) {
      parts.push(current.message);
    }
    current = current.cause;
  }
  return parts.join(": ") || String(err);
}

export const httpNode: NodeImpl = { interface: httpInterface, run: runHttp };
