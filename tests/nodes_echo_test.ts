/** The echo test node: type-preserving echo, extra params, on-purpose failure, cancellable delay. */
import assert from "node:assert/strict";
import { echoNode } from "../src/nodes/echo.ts";
import { testContext } from "./_node_context.ts";

Deno.test("echo: returns the message with its type preserved", async () => {
  const message = { a: [1, { b: null }], n: 2.5 };
  const r = await echoNode.run({ message }, testContext());
  assert.equal(r.action, "default");
  assert.deepEqual(r.outputs.echo, message);
  assert.deepEqual(r.outputs.messages, [message]);
});

Deno.test("echo: extra params come back under params", async () => {
  const r = await echoNode.run({ message: "hi", x: 1, y: [true] }, testContext());
  assert.deepEqual(r.outputs.params, { x: 1, y: [true] });
});

Deno.test("echo: count repeats the message in messages", async () => {
  const r = await echoNode.run({ message: 7, count: 3 }, testContext());
  assert.deepEqual(r.outputs.messages, [7, 7, 7]);
});

Deno.test("echo: fail true ends with the error action naming the node", async () => {
  const r = await echoNode.run({ message: "m", fail: true }, testContext({ nodeId: "step-1" }));
  assert.equal(r.action, "error");
  assert.match(r.error ?? "", /echo node 'step-1' failed on purpose/);
  assert.equal(r.outputs.echo, "m");
});

Deno.test("echo: delay_ms is cut short when ctx.signal aborts", async () => {
  const controller = new AbortController();
  const running = echoNode.run(
    { message: "m", delay_ms: 600_000 },
    testContext({ signal: controller.signal }),
  );
  controller.abort();
  const r = await running;
  assert.equal(r.action, "error");
  assert.match(r.error ?? "", /cancelled/);
});

Deno.test("echo: a short delay_ms still answers with the message", async () => {
  const r = await echoNode.run({ message: "late", delay_ms: 5 }, testContext());
  assert.equal(r.action, "default");
  assert.equal(r.outputs.echo, "late");
});

Deno.test("echo: a negative count is an error naming the param", async () => {
  const r = await echoNode.run({ count: -1 }, testContext());
  assert.equal(r.action, "error");
  assert.match(r.error ?? "", /'count'/);
});

Deno.test("echo: is hidden and declares default and error actions", () => {
  assert.equal(echoNode.interface.hidden, true);
  assert.deepEqual(echoNode.interface.actions, ["default", "error"]);
});
