/** The http node against a real loopback server (Deno.serve on port 0). */
import assert from "node:assert/strict";
import { httpNode } from "../src/nodes/http.ts";
import { runNodeRestricted, testContext } from "./_node_context.ts";

interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

/** Runs `fn` against a server whose handler is `handler`; every request is recorded in `seen`. */
async function withServer(
  handler: (req: Request) => Response | Promise<Response>,
  fn: (base: string, seen: Seen[]) => Promise<void>,
): Promise<void> {
  const seen: Seen[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    seen.push({
      method: req.method,
      url: new URL(req.url),
      headers: req.headers,
      body: await req.text(),
    });
    return handler(req);
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, seen);
  } finally {
    await server.shutdown();
  }
}

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });

Deno.test("http: a JSON response is parsed, with status code and headers", async () => {
  await withServer(() => json({ items: [1, 2] }), async (base) => {
    const r = await httpNode.run({ url: `${base}/x` }, testContext());
    assert.equal(r.action, "default");
    assert.deepEqual(r.outputs.response, { items: [1, 2] });
    assert.equal(r.outputs.status_code, 200);
    assert.equal(
      (r.outputs.headers as Record<string, string>)["content-type"],
      "application/json; charset=utf-8",
    );
  });
});

Deno.test("http: a non-JSON response is returned as text", async () => {
  await withServer(() => new Response("plain {not json}"), async (base) => {
    const r = await httpNode.run({ url: base }, testContext());
    assert.equal(r.outputs.response, "plain {not json}");
  });
});

Deno.test("http: query params are added to the URL, arrays as repeated keys", async () => {
  await withServer(() => new Response("ok"), async (base, seen) => {
    await httpNode.run(
      { url: `${base}/search?x=1`, params: { q: "a b", n: 3, tag: ["t1", "t2"] } },
      testContext(),
    );
    const q = seen[0].url.searchParams;
    assert.equal(q.get("x"), "1");
    assert.equal(q.get("q"), "a b");
    assert.equal(q.get("n"), "3");
    assert.deepEqual(q.getAll("tag"), ["t1", "t2"]);
  });
});

Deno.test("http: an object body is sent as JSON with content-type application/json", async () => {
  await withServer(() => new Response("ok"), async (base, seen) => {
    await httpNode.run({ url: base, method: "POST", body: { a: [1, "x"] } }, testContext());
    assert.equal(seen[0].method, "POST");
    assert.equal(seen[0].headers.get("content-type"), "application/json");
    assert.deepEqual(JSON.parse(seen[0].body), { a: [1, "x"] });
  });
});

Deno.test("http: a string body is sent as-is and custom headers are passed", async () => {
  await withServer(() => new Response("ok"), async (base, seen) => {
    await httpNode.run(
      {
        url: base,
        method: "put",
        body: "raw text",
        headers: { "X-Token": "abc", "Content-Type": "text/plain" },
      },
      testContext(),
    );
    assert.equal(seen[0].method, "PUT");
    assert.equal(seen[0].body, "raw text");
    assert.equal(seen[0].headers.get("x-token"), "abc");
    assert.equal(seen[0].headers.get("content-type"), "text/plain");
  });
});

Deno.test("http: a non-2xx status ends with error naming the status and the body's start", async () => {
  const long = "missing thing " + "x".repeat(500);
  await withServer(() => new Response(long, { status: 404 }), async (base) => {
    const r = await httpNode.run({ url: `${base}/thing?key=secret` }, testContext());
    assert.equal(r.action, "error");
    assert.equal(r.outputs.status_code, 404);
    assert.match(
      r.error ?? "",
      /^HTTP 404 Not Found from GET http:\/\/127\.0\.0\.1:\d+\/thing: missing thing x+\.\.\.$/,
    );
    assert.ok((r.error ?? "").length < 320);
    assert.doesNotMatch(r.error ?? "", /secret/);
  });
});

Deno.test("http: a server that never answers ends with a timeout error", async () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  await withServer(() => held.then(() => new Response("too late")), async (base) => {
    try {
      const r = await httpNode.run({ url: base, timeout: 0.2 }, testContext());
      assert.equal(r.action, "error");
      assert.match(r.error ?? "", /timed out after 0.2s/);
    } finally {
      release(); // let the server finish the handler so it can shut down
    }
  });
});

Deno.test("http: a refused connection is an error naming the URL without its query", async () => {
  const listener = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const r = await httpNode.run({ url: `http://127.0.0.1:${port}/api?key=secret` }, testContext());
  assert.equal(r.action, "error");
  assert.match(r.error ?? "", new RegExp(`HTTP request failed: GET http://127.0.0.1:${port}/api`));
  assert.match(r.error ?? "", /Connection refused/);
  assert.doesNotMatch(r.error ?? "", /secret/);
});

Deno.test("http: an invalid URL is an error saying what is expected", async () => {
  const r = await httpNode.run({ url: "not a url" }, testContext());
  assert.equal(r.action, "error");
  assert.match(r.error ?? "", /absolute http:\/\/ or https:\/\/ URL/);
});

Deno.test("http: a GET with a body is refused before sending", async () => {
  const r = await httpNode.run({ url: "http://127.0.0.1:9/", body: { a: 1 } }, testContext());
  assert.equal(r.action, "error");
  assert.match(r.error ?? "", /GET request cannot have a body/);
});

Deno.test("http: a host refused by Deno permissions names the --allow-net flag", async () => {
  const r = await runNodeRestricted("http.ts", "httpNode", { url: "http://example.invalid/" }, [
    "--allow-read",
    "--allow-net=127.0.0.1",
  ]);
  assert.equal(r.action, "error");
  assert.match(r.error ?? "", /--allow-net=example\.invalid:80/);
});
