// Runs inside the sandbox (a Node vm context, or the embedded V8 isolate) before the code
// under test. It gives the code what the service's runtime gives it (module, exports, console,
// and for a transform with an application the `bt` client, here a recorder) and keeps the
// outcome for the host to read back as one JSON string. Nothing from the host realm is ever
// passed in: requests arrive as JSON text and leave as JSON text, so the code cannot reach
// the host's objects (and through them `process`).
(function () {
  "use strict";
  var MAX_LOGS = 500;
  var MAX_CALLS = 500;
  var MAX_TEXT = 10000;
  var state = {
    status: "pending",
    value: undefined,
    error: null,
    logs: [],
    logsDropped: 0,
    calls: [],
    callsDropped: 0,
    request: null,
    factory: null,
  };

  function clip(text) {
    return text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) + "… (cut)" : text;
  }

  function show(value) {
    if (typeof value === "string") return value;
    if (value instanceof Error) return value.stack || value.name + ": " + value.message;
    if (typeof value === "function") return "[Function " + (value.name || "anonymous") + "]";
    if (typeof value === "undefined") return "undefined";
    if (typeof value === "bigint") return value.toString() + "n";
    if (typeof value === "symbol") return value.toString();
    try {
      var seen = [];
      var text = JSON.stringify(value, function (key, v) {
        if (typeof v === "bigint") return v.toString() + "n";
        if (typeof v === "object" && v !== null) {
          if (seen.indexOf(v) >= 0) return "[Circular]";
          seen.push(v);
        }
        return v;
      });
      return text === undefined ? String(value) : text;
    } catch (error) {
      return String(value);
    }
  }

  function logger(level) {
    return function () {
      if (state.logs.length >= MAX_LOGS) {
        state.logsDropped += 1;
        return;
      }
      var parts = [];
      for (var i = 0; i < arguments.length; i++) parts.push(show(arguments[i]));
      state.logs.push({ level: level, text: clip(parts.join(" ")) });
    };
  }

  var console = {
    log: logger("log"),
    info: logger("info"),
    debug: logger("debug"),
    trace: logger("debug"),
    warn: logger("warn"),
    error: logger("error"),
  };

  function cloneArgument(value) {
    if (typeof value === "function") return "[Function " + (value.name || "anonymous") + "]";
    if (value === undefined) return null;
    try {
      var text = JSON.stringify(value);
      return text === undefined ? show(value) : JSON.parse(text);
    } catch (error) {
      return show(value);
    }
  }

  function record(path, args) {
    if (state.calls.length >= MAX_CALLS) {
      state.callsDropped += 1;
      return;
    }
    var copied = [];
    for (var i = 0; i < args.length; i++) copied.push(cloneArgument(args[i]));
    state.calls.push({ method: path, args: copied });
  }

  // Any property is another recorder and any call is recorded; a call answers a promise of
  // null, so `await bt.tokens.create(...)` works and returns nothing real. `then` is absent,
  // so awaiting `bt` or one of its properties does not look like awaiting a promise.
  function recorder(path) {
    var target = function () {};
    return new Proxy(target, {
      get: function (t, property) {
        if (typeof property === "symbol" || property === "then" || property === "toJSON") {
          return undefined;
        }
        return recorder(path ? path + "." + property : String(property));
      },
      apply: function (t, self, args) {
        record(path || "bt", args);
        return Promise.resolve(null);
      },
      construct: function (t, args) {
        record("new " + (path || "bt"), args);
        return recorder(path || "bt");
      },
    });
  }

  function describeError(error) {
    if (error !== null && typeof error === "object") {
      return {
        name: String(error.name || "Error"),
        message: clip(String(error.message === undefined ? show(error) : error.message)),
        stack: typeof error.stack === "string" ? clip(error.stack) : null,
      };
    }
    return { name: "thrown value", message: clip(show(error)), stack: null };
  }

  // The sandbox holds no modules: a require says so, instead of "require is not defined".
  function refuseRequire(name) {
    throw new Error(
      "require(" + JSON.stringify(String(name)) + ") is refused in a test-run: " +
      "the sandbox has no modules (no file system, network or processes)"
    );
  }

  function settle(status, value) {
    if (state.status !== "pending") return;
    state.status = status;
    if (status === "ok") state.value = value;
    else state.error = describeError(value);
  }

  function kindOf(value) {
    if (value === null) return "null";
    if (Array.isArray(value)) return "array";
    return typeof value;
  }

  function define(name, value) {
    Object.defineProperty(globalThis, name, {
      value: value,
      writable: false,
      enumerable: false,
      configurable: false,
    });
  }

  define("console", console);

  define("__tcPrepare", function (requestJson, kind, withBt) {
    var request = JSON.parse(requestJson);
    if (kind === "transform" && withBt) request.bt = recorder("");
    state.request = request;
  });

  define("__tcDefine", function (factory) {
    state.factory = factory;
  });

  // Returns a promise that settles when the code's outcome is known.
  define("__tcInvoke", function () {
    var done;
    try {
      var module = { exports: {} };
      state.factory.call(undefined, module, module.exports, refuseRequire);
      var exported = module.exports;
      if (typeof exported !== "function") {
        state.status = "no_function";
        state.error = {
          name: "ExportError",
          message:
            "module.exports is " + kindOf(exported) + ", not a function: " +
            "the service finds nothing to call",
          stack: null,
        };
        return Promise.resolve(null);
      }
      var out = exported(state.request);
      if (out !== null && (typeof out === "object" || typeof out === "function") &&
          typeof out.then === "function") {
        done = Promise.resolve(out).then(
          function (value) { settle("ok", value); },
          function (error) { settle("threw", error); }
        );
      } else {
        settle("ok", out);
        done = Promise.resolve(null);
      }
    } catch (error) {
      settle("threw", error);
      done = Promise.resolve(null);
    }
    return done;
  });

  define("__tcOutcome", function () {
    var out = {
      status: state.status,
      result_kind: null,
      result_json: null,
      error: state.error,
      logs: state.logs,
      logs_dropped: state.logsDropped,
      calls: state.calls,
      calls_dropped: state.callsDropped,
    };
    if (state.status === "ok") {
      out.result_kind = kindOf(state.value);
      try {
        var text = JSON.stringify(state.value);
        out.result_json = text === undefined ? null : text;
      } catch (error) {
        out.status = "unserializable";
        out.error = describeError(error);
      }
    }
    return JSON.stringify(out);
  });
})();
