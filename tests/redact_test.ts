/** Redaction: by key (whole words), by value (settings env, even inside longer strings), and the canary end to end. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { isSecretKey, REDACTED, Redactor } from "../src/core/redact.ts";
import { main } from "../src/cli/main.ts";
import { captureIO, filesUnder } from "./_cli.ts";

Deno.test("isSecretKey matches whole secret words in any key style", () => {
  for (
    const k of [
      "password",
      "GITHUB_TOKEN",
      "apiKey",
      "x-api-key",
      "api_key",
      "Authorization",
      "client_secret",
      "PRIVATE_KEY",
      "db_credentials",
      "sessionId",
    ]
  ) {
    assert.equal(isSecretKey(k), true, k);
  }
});

Deno.test("isSecretKey does not match words that only contain a secret word", () => {
  for (
    const k of [
      "author",
      "authors",
      "tokenizer",
      "secretary",
      "keyboard",
      "passage",
      "name",
      "path",
    ]
  ) {
    assert.equal(isSecretKey(k), false, k);
  }
});

Deno.test("Redactor replaces a secret value inside a longer string", () => {
  const r = new Redactor(["abcd-secret-1234"]);
  assert.equal(r.text("Bearer abcd-secret-1234!"), `Bearer ${REDACTED}!`);
});

Deno.test("Redactor masks secret keys and secret values deep in objects and arrays", () => {
  const r = new Redactor(["v-secret-9"]);
  assert.deepEqual(r.value({ a: [{ token: "t" }, "x v-secret-9 y"], author: "ann", n: 3 }), {
    a: [{ token: REDACTED }, `x ${REDACTED} y`],
    author: "ann",
    n: 3,
  });
});

Deno.test("Redactor replaces the longer of two overlapping secrets whole", () => {
  const r = new Redactor(["abcd", "abcdefgh"]);
  assert.equal(r.text("abcdefgh"), REDACTED);
});

Deno.test("Redactor ignores values too short to redact safely", () => {
  assert.equal(new Redactor(["a", "ab"]).text("a cab"), "a cab");
});

Deno.test("Redactor never leaves a secret in any string it returns (property)", async () => {
  const fc = (await import("fast-check")).default;
  fc.assert(
    fc.property(
      fc.string({ minLength: 4, maxLength: 12 }),
      fc.string(),
      fc.string(),
      (secret: string, a: string, b: string) => {
        const out = new Redactor([secret]).text(a + secret + b);
        // Replacement may create a new occurrence only from text around it; the original one is gone.
        assert.ok(out.split(secret).length <= (a + b + REDACTED).split(secret).length + 1);
      },
    ),
  );
});

Deno.test("a canary secret from settings never appears in traces, errors, stored metadata or CLI output", async () => {
  const root = await Deno.makeTempDir();
  const home = join(root, "home");
  const cwd = join(root, "cwd");
  await Deno.mkdir(cwd, { recursive: true });
  const CANARY = "canary-7f3a9c2e-not-for-eyes";
  const outputs: string[] = [];
  const pflow = async (...argv: string[]) => {
    const c = captureIO(home, cwd);
    const code = await main(argv, c.io);
    outputs.push(c.out(), c.err());
    return code;
  };
  try {
    await pflow("settings", "set-env", "CANARY_VALUE", CANARY);
    await Deno.writeTextFile(
      join(cwd, "leak.pflow.md"),
      `# Leak

Prints the canary and then fails with it.

## Inputs

### note

A note.

- type: string

## Steps

### show

Echo the secret.

- type: shell
- command: echo "note=\${note} value=$CANARY_VALUE"

### fail

Fail with the secret in stderr.

- type: shell
- command: echo "boom $CANARY_VALUE" >&2; exit 3

## Outputs

### text

What was printed.

- source: \${show.stdout}
`,
    );
    assert.equal(await pflow("workflow", "save", "leak.pflow.md", "--name", "leak"), 0);
    await pflow("run", "leak", `note=${CANARY}`);
    await pflow("run", "leak", `note=${CANARY}`, "--json");
    await pflow("workflow", "history", "leak");
    await pflow("workflow", "history", "leak", "--json");
    await pflow("workflow", "describe", "leak");
    await pflow(
      "registry",
      "run",
      "shell",
      "command=echo $CANARY_VALUE; echo $CANARY_VALUE >&2; exit 1",
    );
    await pflow("registry", "run", "shell", "command=echo $CANARY_VALUE", "--json");
    await pflow("settings", "show");
    await pflow("settings", "list-env", "--json");
    for (const text of outputs) assert.ok(!text.includes(CANARY), text);
    let checked = 0;
    for (const rel of await filesUnder(home)) {
      if (rel === "settings.json") continue;
      const text = await Deno.readTextFile(join(home, rel));
      assert.ok(!text.includes(CANARY), rel);
      checked++;
    }
    const files = await filesUnder(home);
    assert.ok(files.some((f) => f.startsWith("debug/")), "a trace was written");
    assert.ok(files.some((f) => f.startsWith("cache/node-runs/")), "a node run was cached");
    assert.ok(checked >= 3);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
