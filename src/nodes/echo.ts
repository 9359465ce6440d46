/**
 * The `echo` node: a deterministic test node (hidden from listings). It returns its message
 * unchanged, can fail or wait on request, and echoes any extra params back. It runs in the
 * 10,000-node executor benchmark, so it does no work it is not asked for.
 */
import type { NodeInterface } from "../core/node_interface.ts";
import { fail, type NodeContext, type NodeImpl, type NodeResult, ok } from "./types.ts";

const echoInterface: NodeInterface = {
  type: "echo",
  description:
    "Test node: returns message unchanged (type preserved) and any extra params under params; fail: true ends with the error action.",
  params: {
    message: { type: "any", description: "Returned as the echo output, unchanged" },
    count: {
      type: "integer",
      default: 1,
      description: "How many copies of message the messages output holds",
    },
    fail: { type: "boolean", default: false, description: "End with the error action" },
    delay_ms: {
      type: "number",
      default: 0,
      description: "Milliseconds to wait before answering (cancellable)",
    },
  },
  outputs: {
    echo: { type: "any", description: "The message, exactly as given" },
    messages: {
      type: "array",
      description: "count copies of the message",
      items: { type: "any", description: "The message" },
    },
    params: { type: "object", description: "Every param that is not one of echo's own" },
  },
  actions: ["default", "error"],
  category: "core",
  hidden: true,
};

const OWN = new Set(Object.keys(echoInterface.params));

async function runEcho(params: Record<string, unknown>, ctx: NodeContext): Promise<NodeResult> {
  const message = params.message;
  const count = params.count ?? 1;
  const delay = params.delay_ms ?? 0;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0) {
    return fail(`echo: param 'count' must be a non-negative integer, got ${JSON.stringify(count)}`);
  }
  if (typeof delay !== "number" || !(delay >= 0)) {
    return fail(
      `echo: param 'delay_ms' must be a non-negative number, got ${JSON.stringify(delay)}`,
    );
  }
  const extra: Record<string, unknown> = {};
  for (const key in params) if (!OWN.has(key)) extra[key] = params[key];
  const outputs = {
    echo: message,
    messages: count === 1 ? [message] : Array.from({ length: count }, () => message),
    params: extra,
  };
  if (delay > 0 && !(await sleep(delay, ctx.signal))) {
    return fail(`echo: cancelled during delay_ms`, outputs);
  }
  if (params.fail === true || params.fail === "true") {
    return fail(`echo node '${ctx.nodeId}' failed on purpose (fail: true)`, outputs);
  }
  return ok(outputs);
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export const echoNode: NodeImpl = { interface: echoInterface, run: runEcho };
