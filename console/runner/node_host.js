// The Node.js side of a test-run (run with `node -e`, under the permission model, with
// --frozen-intrinsics and --experimental-vm-modules): reads one job as JSON on stdin, runs the
// code in a fresh vm context that holds only the harness, and writes one JSON outcome on
// stdout. The code never sees this realm: no require, no process, no object of ours.
//
// The harness comes with this script (engines.py puts its text before it as HARNESS, after a
// "use strict" of its own) and is set up in the context as soon as the process starts, before
// the job is read: a process started ahead of its run (the runner's spares) has the context
// ready, and a run waits only for its own code (setting the harness up, which freezes the
// context's intrinsics, takes tens of milliseconds).
//
// What this host does against the code (see docs/test-run-hardening.md):
// - It refuses to run unless this realm's intrinsics are frozen (--frozen-intrinsics): a getter
//   planted on our Object.prototype is how an escape turns into running code here.
// - Every evaluation gets an importModuleDynamically that throws an error made in the
//   sandbox's realm, so `import()` gives the code nothing of ours (without it, Node rejects
//   with an error of this realm).
// - It reads the sandbox only through primitives: the flags of __tcInvoke and __tcTick and the
//   JSON text of __tcOutcome. An exception from an evaluation is never read unless it is this
//   realm's own timeout error, checked without running anything of the sandbox.
// - Every evaluation, including the one that serialises the result, runs under what is left
//   of the time limit; timers and finalizer callbacks run in those evaluations, never later.
// - Node tracks the rejections of the whole process, the sandbox's too, and would print (and
//   so read) an unhandled one's reason, then end. Our own listeners answer instead: they touch
//   neither the promise nor its reason, only hand both to the harness (__tcRejected), which
//   reads them inside an evaluation under the time limit. The process runs with
//   --unhandled-rejections=none besides. The console kills it from outside at the limit.
"use strict";
const vm = require("vm");
const { types } = require("util");

const ObjectCreate = Object.create;
const ObjectIsFrozen = Object.isFrozen;
const ReflectGetOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
const isProxy = types.isProxy;
const hrtime = process.hrtime.bigint;
const JSONParse = JSON.parse;
const JSONStringify = JSON.stringify;
// Made now, before any code runs: creating them later reads properties that a planted getter
// could answer.
const stdout = process.stdout;
const stdin = process.stdin;
const exit = process.exit.bind(process);
const on = process.on.bind(process);

const IDLE_TURNS = 16;
/** Turns of the event loop to wait, with nothing queued in the sandbox, for a rejection of
 * ours (an import()) or an engine task to reach the code before its promise counts as never
 * settling. An import() is refused within one. */

class Stop {
  constructor(status, phase) {
    this.status = status;
    this.phase = phase;
  }
}

function turn() {
  return new Promise((resolve) => setImmediate(resolve));
}

function isTimeout(error) {
  // Node makes its timeout error in the realm that was running: the sandbox's. Its `code` is
  // an own data property; reading that runs nothing unless the object is a Proxy. (The code
  // can never pass such an object here: the harness catches what it throws.)
  if (error === null || typeof error !== "object" || isProxy(error)) return false;
  const code = ReflectGetOwnPropertyDescriptor(error, "code");
  return code !== undefined && code.value === "ERR_SCRIPT_EXECUTION_TIMEOUT";
}

const SETUP_TIMEOUT_MS = 10000;
/** The bound on each evaluation of ours before the code's (the harness's set-up): none of the
 * code runs in them, and the console's kill bounds the whole process besides. */

let imports = 0;
let importRefused = null;
const importModuleDynamically = (specifier) => {
  imports += 1;
  throw importRefused(typeof specifier === "string" ? specifier : "?");
};

// The context with the harness set up, made before the job is read: { context } or
// { refused } (an outcome) or { error } (what setting it up threw).
function prepare() {
  if (!ObjectIsFrozen(Object.prototype) || !ObjectIsFrozen(Function.prototype)) {
    return { refused: hostError("this Node.js runs without --frozen-intrinsics; the run is refused") };
  }
  if (typeof vm.SourceTextModule !== "function") {
    return {
      refused: hostError("this Node.js runs without --experimental-vm-modules; the run is refused"),
    };
  }
  try {
    const context = vm.createContext(ObjectCreate(null), {
      name: "tenant-console test-run",
      codeGeneration: { strings: true, wasm: false },
      microtaskMode: "afterEvaluate",
    });
    const setup = { timeout: SETUP_TIMEOUT_MS, breakOnSigint: false, importModuleDynamically };
    vm.runInContext(HARNESS, context, setup);
    importRefused = vm.runInContext("__tcImportRefused", context, setup);
    // The harness's own functions, taken before the code runs: they only keep what they are
    // given (see trackRejections).
    rejected = vm.runInContext("__tcRejected", context, setup);
    handled = vm.runInContext("__tcHandled", context, setup);
    return { context };
  } catch (error) {
    return { error };
  }
}

async function main(job, prepared) {
  if (prepared.refused) return prepared.refused;
  if (prepared.error) throw prepared.error;
  const context = prepared.context;
  const setup = { timeout: job.timeout_ms, breakOnSigint: false, importModuleDynamically };
  vm.runInContext(
    "__tcPrepare(" + JSONStringify(JSONStringify(job.request)) + ", " +
      JSONStringify(job.kind) + ", " + (job.with_bt ? "true" : "false") + ")",
    context,
    setup
  );
  const started = hrtime();
  // The console's kill at the time limit counts from this line (a start-up is not the code's).
  stdout.write("\n");
  const elapsed = () => Number(hrtime() - started) / 1e6;
  const deadline = started + BigInt(job.timeout_ms) * 1000000n;
  let factory;
  try {
    factory = vm.compileFunction(job.code, ["module", "exports", "require"], {
      filename: "code.js",
      parsingContext: context,
      importModuleDynamically,
    });
  } catch (error) {
    // Compiling runs none of the code: the error is ours.
    return { status: "syntax", error: describe(error), engine_ms: elapsed() };
  }
  context.__tcFactory = factory;

  // One evaluation under what is left of the time limit; answers a primitive only.
  const evaluate = (source, phase, type) => {
    const left = Number(deadline - hrtime()) / 1e6;
    if (left < 1) throw new Stop("timeout", phase);
    let answer;
    try {
      // With microtaskMode "afterEvaluate" the promise jobs run inside this call, under the
      // same timeout: an endless `await` loop is stopped like an endless `while`.
      answer = vm.runInContext(source, context, {
        timeout: Math.max(1, Math.floor(left)),
        breakOnSigint: false,
        importModuleDynamically,
      });
    } catch (error) {
      if (isTimeout(error)) throw new Stop("timeout", phase);
      throw new Stop("harness_failed", phase);
    }
    if (typeof answer !== type) throw new Stop("harness_failed", phase);
    return answer;
  };

  // The promise jobs of the first evaluation run inside it: had the code returned before the
  // limit struck them? A short evaluation asks (the harness answers a number).
  const timedOutIn = (stopped) => {
    if (stopped !== "running") return stopped;
    try {
      // Reading a flag takes microseconds; the budget is for a machine whose cores are busy
      // (50 ms was missed under load), and stays well inside the kill margin (1 s).
      const flags = vm.runInContext("__tcSettled()", context, {
        timeout: 400,
        breakOnSigint: false,
        importModuleDynamically,
      });
      return typeof flags === "number" && flags & 1 ? "after_return" : stopped;
    } catch (error) {
      return stopped;
    }
  };

  let phase = "running";
  try {
    let flags = evaluate("__tcDefine(__tcFactory); __tcInvoke()", phase, "number");
    let idle = 0;
    for (;;) {
      if (flags & 1) phase = "after_return";
      flags = evaluate("__tcTick()", phase, "number");
      if (flags & 2) {
        idle = 0;
        continue;
      }
      if (flags & 1) {
        if (!(flags & 4)) break;
        continue;
      }
      // Nothing queued in the sandbox and no outcome yet: an import() of the code may still
      // be on its way to a rejection through this realm's promise jobs, or an engine task
      // (WebAssembly.compile) to its answer: one turn of the event loop.
      const before = imports;
      await turn();
      idle = imports === before ? idle + 1 : 0;
      if (idle > IDLE_TURNS) break;
    }
    // One more turn, so that Node hands every rejection left unhandled to the harness before
    // the outcome is read (a promise the code left rejected fails the run, as on the service).
    // Two: Node handles rejections after the promise jobs of the turn that resumes us.
    await turn();
    await turn();
    phase = "serialising";
    const text = evaluate("__tcOutcome()", phase, "string");
    const outcome = JSONParse(text);
    outcome.engine_ms = elapsed();
    return outcome;
  } catch (stop) {
    if (!(stop instanceof Stop)) throw stop;
    if (stop.status === "timeout") {
      const engineMs = elapsed();
      return { status: "timeout", phase: timedOutIn(stop.phase), engine_ms: engineMs };
    }
    return hostError("the sandbox's harness failed while " + stop.phase.replace("_", " "));
  }
}

let rejected = null;
let handled = null;
let finished = false;

// Node's rejection tracking hands these listeners the sandbox's promises and their reasons:
// passed on untouched (no property read, no conversion), and never once the outcome is out.
function trackRejections() {
  on("unhandledRejection", (reason, promise) => {
    if (rejected !== null && !finished) rejected(promise, reason);
  });
  on("rejectionHandled", (promise) => {
    if (handled !== null && !finished) handled(promise);
  });
  // Only Node's rejection tracking can throw out of the host (a Proxy in a promise's
  // prototype chain answering its read of an async id): the value is not read.
  on("uncaughtException", () => {
    finish(hostError("the code's promise interfered with Node's rejection tracking"));
  });
}

function hostError(message) {
  return { status: "host_error", error: { name: "EngineError", message, stack: null } };
}

function describe(error) {
  return {
    name: String((error && error.name) || "Error"),
    message: String((error && error.message) || error),
    stack: error && typeof error.stack === "string" ? error.stack : null,
  };
}

function finish(outcome) {
  if (finished) return;
  finished = true;
  stdout.write(JSONStringify(outcome), () => exit(0));
}

trackRejections();

let input = "";
stdin.setEncoding("utf8");
stdin.on("data", (chunk) => {
  input += chunk;
});
// Before any of the job is read (the listeners above run only once this script has ended).
const prepared = prepare();
stdin.on("end", () => {
  main(JSONParse(input), prepared).then(finish, (error) => {
    finish({ status: "host_error", error: describe(error) });
  });
});
