/** `pflow settings …`: secrets stored 0600, masked by default, reaching runs without overriding the environment. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { childEnv, loadSettings } from "../src/core/settings.ts";
import { pflowIn, withHome } from "./_cli.ts";

Deno.test("set-env stores the secret in settings.json with mode 0600", () =>
  withHome(async (home) => {
    assert.equal((await pflowIn(home, "settings", "set-env", "API_TOKEN", "s3cret-value")).code, 0);
    assert.equal((await loadSettings(home)).env.API_TOKEN, "s3cret-value");
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(join(home, "settings.json"))).mode! & 0o777, 0o600);
    }
  }));

Deno.test("list-env masks values unless --show-values", () =>
  withHome(async (home) => {
    await pflowIn(home, "settings", "set-env", "API_TOKEN", "s3cret-value");
    const masked = await pflowIn(home, "settings", "list-env");
    assert.match(masked.out, /API_TOKEN=\*{8}/);
    assert.ok(!masked.out.includes("s3cret-value"));
    const shown = await pflowIn(home, "settings", "list-env", "--show-values");
    assert.match(shown.out, /API_TOKEN=s3cret-value/);
  }));

Deno.test("settings show never prints a secret value", () =>
  withHome(async (home) => {
    await pflowIn(home, "settings", "set-env", "API_TOKEN", "s3cret-value");
    for (const argv of [["settings", "show"], ["settings", "show", "--json"]]) {
      const r = await pflowIn(home, ...argv);
      assert.equal(r.code, 0);
      assert.ok(!r.out.includes("s3cret-value"), r.out);
      assert.match(r.out, /API_TOKEN/);
    }
  }));

Deno.test("unset-env removes the key and says when it was not set", () =>
  withHome(async (home) => {
    await pflowIn(home, "settings", "set-env", "A_KEY", "value1");
    assert.match((await pflowIn(home, "settings", "unset-env", "A_KEY")).out, /Removed A_KEY/);
    assert.match((await pflowIn(home, "settings", "unset-env", "A_KEY")).out, /was not set/);
    assert.deepEqual((await loadSettings(home)).env, {});
  }));

Deno.test("set-env refuses a key that is not an environment variable name", () =>
  withHome(async (home) => {
    const r = await pflowIn(home, "settings", "set-env", "1-bad", "v");
    assert.equal(r.code, 1);
    assert.match(r.err, /Invalid environment variable name/);
  }));

Deno.test("a corrupt settings.json is reported, not overwritten", () =>
  withHome(async (home) => {
    await Deno.writeTextFile(join(home, "settings.json"), "{nope");
    const r = await pflowIn(home, "settings", "set-env", "K_EY", "v");
    assert.equal(r.code, 1);
    assert.match(r.err, /settings\.json is not valid JSON/);
    assert.equal(await Deno.readTextFile(join(home, "settings.json")), "{nope");
  }));

Deno.test("settings secrets reach child environments without overriding a variable already set", () => {
  const env = childEnv({ PATH: "/evil", PFLOW_TEST_ONLY_SECRET: "x1234" });
  assert.equal(env.PFLOW_TEST_ONLY_SECRET, "x1234");
  assert.equal(env.PATH, Deno.env.get("PATH"));
});

Deno.test("a run's shell step sees a settings secret as an environment variable", () =>
  withHome(async (home) => {
    await pflowIn(home, "settings", "set-env", "PFLOW_T_VALUE", "visible-value");
    const r = await pflowIn(
      home,
      "registry",
      "run",
      "shell",
      "command=printf %s ${#PFLOW_T_VALUE}",
      "--json",
    );
    const run = JSON.parse(r.out);
    const read = await pflowIn(home, "read-fields", run.execution_id, "node.stdout");
    assert.equal(read.out.trim(), String("visible-value".length));
  }));
