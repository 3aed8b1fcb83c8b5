// The Node.js side of a test-run (run with `node -e`, under the permission model): reads one
// job as JSON on stdin, runs the code in a fresh vm context that holds only the harness, and
// writes one JSON outcome on stdout. The code never sees this realm: no require, no process.
"use strict";
const vm = require("vm");

function main(job) {
  const context = vm.createContext(Object.create(null), {
    name: "tenant-console test-run",
    codeGeneration: { strings: true, wasm: false },
    microtaskMode: "afterEvaluate",
  });
  const options = { timeout: job.timeout_ms, breakOnSigint: false };
  vm.runInContext(job.harness, context, options);
  vm.runInContext(
    "__tcPrepare(" + JSON.stringify(JSON.stringify(job.request)) + ", " +
      JSON.stringify(job.kind) + ", " + (job.with_bt ? "true" : "false") + ")",
    context,
    options
  );
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
  let factory;
  try {
    factory = vm.compileFunction(job.code, ["module", "exports", "require"], {
      filename: "code.js",
      parsingContext: context,
    });
  } catch (error) {
    return { status: "syntax", error: describe(error), engine_ms: elapsed() };
  }
  context.__tcFactory = factory;
  try {
    // With microtaskMode "afterEvaluate" the promise jobs run inside this call, under the
    // same timeout: an endless `await` loop is stopped like an endless `while`.
    vm.runInContext("__tcDefine(__tcFactory); __tcInvoke()", context, options);
  } catch (error) {
    if (error && error.code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      return { status: "timeout", engine_ms: elapsed() };
    }
    throw error;
  }
  const engineMs = elapsed();
  const outcome = JSON.parse(vm.runInContext("__tcOutcome()", context, options));
  outcome.engine_ms = engineMs;
  return outcome;
}

function describe(error) {
  return {
    name: String((error && error.name) || "Error"),
    message: String((error && error.message) || error),
    stack: error && typeof error.stack === "string" ? error.stack : null,
  };
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  let outcome;
  try {
    outcome = main(JSON.parse(input));
  } catch (error) {
    outcome = { status: "host_error", error: describe(error) };
  }
  process.stdout.write(JSON.stringify(outcome), () => process.exit(0));
});
