// Runs inside the sandbox (a Node vm context, or the embedded V8 isolate) before the code
// under test. It gives the code what the service's runtime gives it (module, exports, console,
// timers, and for a transform with an application the `bt` client, here a recorder) and keeps
// the outcome for the host to read back as one JSON string.
//
// What keeps the host safe from the code (see docs/test-run-hardening.md):
// - Nothing from the host realm is ever passed in: requests arrive as JSON text and leave as
//   JSON text; everything the code is given (console, bt, timers, errors) is made here.
// - The intrinsics (Object.prototype, Function.prototype, Error, Promise, JSON, ...) are frozen
//   before the code runs, so the code cannot change how this harness (or the host) behaves;
//   assigning a property an intrinsic prototype also has still works on the code's own objects.
// - Everything that runs the code's functions (the call, promise jobs, timers, finalizers,
//   getters and toJSON while the result is serialised) runs inside an evaluation the host
//   started under the time limit: timers are a queue the host drains one evaluation at a time,
//   and a finalizer only queues its callback there.
// - Everything that leaves is bounded here, before it is serialised: each text (a log line, an
//   error, a bt method's name and argument), the number of lines, calls and arguments, and
//   the characters of logs and calls together. The console caps what it reads as well.
(function () {
  "use strict";
  var MAX_LOGS = 500;
  var MAX_CALLS = 500;
  var MAX_TEXT = 10000;
  var MAX_DEPTH = 100;
  var MAX_RESULT_CHARS = 2000000;
  var MAX_ARGUMENT_CHARS = 20000;
  var MAX_ARGUMENTS = 20;
  var MAX_NAME = 200;
  var MAX_RECORDED_CHARS = 1000000;
  var MAX_REJECTIONS = 100;

  // Primordials: taken before anything else runs, used instead of the globals.
  var global = globalThis;
  var defineProperty = Object.defineProperty;
  var freeze = Object.freeze;
  var getPrototypeOf = Object.getPrototypeOf;
  var getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  var hasOwn = Function.prototype.call.bind(Object.prototype.hasOwnProperty);
  var ownKeys = Reflect.ownKeys;
  var apply = Reflect.apply;
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  var isArray = Array.isArray;
  var StringCtor = String;
  var FunctionCtor = Function;
  var isInteger = Number.isInteger;
  var ErrorCtor = Error;
  var TypeErrorCtor = TypeError;
  var SetCtor = Set;
  var WeakMapCtor = WeakMap;
  var setHas = Function.prototype.call.bind(Set.prototype.has);
  var setAdd = Function.prototype.call.bind(Set.prototype.add);
  var weakGet = Function.prototype.call.bind(WeakMap.prototype.get);
  var weakSet = Function.prototype.call.bind(WeakMap.prototype.set);
  var PromiseCtor = Promise;
  var promiseResolve = Promise.resolve.bind(Promise);
  var promiseReject = Promise.reject.bind(Promise);
  var objectCreate = Object.create;
  var promiseThen = Function.prototype.call.bind(Promise.prototype.then);
  var stringSlice = Function.prototype.call.bind(String.prototype.slice);
  var charCodeAt = Function.prototype.call.bind(String.prototype.charCodeAt);
  var arrayJoin = Function.prototype.call.bind(Array.prototype.join);
  var arrayIndexOf = Function.prototype.call.bind(Array.prototype.indexOf);
  var arraySplice = Function.prototype.call.bind(Array.prototype.splice);
  var RealFinalizationRegistry = typeof FinalizationRegistry === "function" ? FinalizationRegistry : null;
  var realRegister = RealFinalizationRegistry
    ? Function.prototype.call.bind(RealFinalizationRegistry.prototype.register)
    : null;
  var realUnregister = RealFinalizationRegistry
    ? Function.prototype.call.bind(RealFinalizationRegistry.prototype.unregister)
    : null;

  function append(list, item) {
    list[list.length] = item;
  }

  var state = {
    status: "pending",
    value: undefined,
    error: null,
    logs: [],
    logsDropped: 0,
    calls: [],
    callsDropped: 0,
    recordedChars: 0,
    rejections: [],
    request: null,
    kind: null,
    factory: null,
  };

  function clip(text) {
    return text.length > MAX_TEXT ? stringSlice(text, 0, MAX_TEXT) + "… (cut)" : text;
  }

  function clipName(text) {
    return text.length > MAX_NAME ? stringSlice(text, 0, MAX_NAME) + "…" : text;
  }

  // Logs and bt calls share one budget of characters, as JSON (a control character is six):
  // past it, later ones are counted only.
  function spend(chars) {
    if (state.recordedChars + chars > MAX_RECORDED_CHARS) {
      state.recordedChars = MAX_RECORDED_CHARS; // spent: later ones are not even copied
      return false;
    }
    state.recordedChars += chars;
    return true;
  }

  // The code's own values are read here, inside the sandbox and the time limit; whatever they
  // throw (a getter, a Proxy trap, toString) is caught and shown as such.
  function safely(read, fallback) {
    try {
      return read();
    } catch (error) {
      return fallback;
    }
  }

  function show(value) {
    if (typeof value === "string") return value;
    if (typeof value === "function") {
      return "[Function " + safely(function () { return StringCtor(value.name || "anonymous"); }, "?") + "]";
    }
    if (typeof value === "undefined") return "undefined";
    if (typeof value === "bigint") return StringCtor(value) + "n";
    if (typeof value === "symbol") return safely(function () { return StringCtor(value); }, "Symbol()");
    if (value !== null && typeof value === "object" && safely(function () { return value instanceof ErrorCtor; }, false)) {
      var stack = safely(function () { return value.stack; }, null);
      if (typeof stack === "string") return stack;
      return safely(function () { return StringCtor(value.name) + ": " + StringCtor(value.message); }, "[Error]");
    }
    try {
      var seen = [];
      var text = stringify(value, function (key, v) {
        if (typeof v === "bigint") return StringCtor(v) + "n";
        if (typeof v === "object" && v !== null) {
          if (arrayIndexOf(seen, v) >= 0) return "[Circular]";
          append(seen, v);
        }
        return v;
      });
      return text === undefined ? StringCtor(value) : text;
    } catch (error) {
      return safely(function () { return StringCtor(value); }, "[unprintable value]");
    }
  }

  function logger(level) {
    return function () {
      if (state.logs.length >= MAX_LOGS || state.recordedChars >= MAX_RECORDED_CHARS) {
        state.logsDropped += 1;
        return;
      }
      var parts = [];
      var length = 0;
      for (var i = 0; i < arguments.length && length <= MAX_TEXT; i++) {
        var part = clip(show(arguments[i]));
        length += part.length + 1;
        append(parts, part);
      }
      var text = clip(arrayJoin(parts, " "));
      if (!spend(stringify(text).length)) {
        state.logsDropped += 1;
        return;
      }
      append(state.logs, { level: level, text: text });
    };
  }

  var sandboxConsole = {
    log: logger("log"),
    info: logger("info"),
    debug: logger("debug"),
    trace: logger("debug"),
    warn: logger("warn"),
    error: logger("error"),
  };

  // The deepest nesting of arrays and objects in a JSON text (strings skipped).
  function jsonDepth(text) {
    var depth = 0;
    var deepest = 0;
    var inString = false;
    for (var i = 0; i < text.length; i++) {
      var c = charCodeAt(text, i);
      if (inString) {
        if (c === 92) i += 1; // backslash: skip the escaped character
        else if (c === 34) inString = false;
      } else if (c === 34) {
        inString = true;
      } else if (c === 123 || c === 91) {
        depth += 1;
        if (depth > deepest) deepest = depth;
      } else if (c === 125 || c === 93) {
        depth -= 1;
      }
    }
    return deepest;
  }

  // A value as JSON text with its limits checked: {text} or {problem, detail}.
  function serialise(value, maxChars) {
    var text;
    try {
      text = stringify(value);
    } catch (error) {
      if (safely(function () { return error instanceof RangeError; }, false)) {
        // Too deep for the engine's own stack: far past MAX_DEPTH.
        return { problem: "too_deep", detail: "deeper than the engine can serialise" };
      }
      return { problem: "unserializable", error: error };
    }
    if (text === undefined) return { text: null };
    if (text.length > maxChars) {
      return { problem: "too_large", detail: StringCtor(text.length) + " characters of JSON" };
    }
    var depth = jsonDepth(text);
    if (depth > MAX_DEPTH) {
      return { problem: "too_deep", detail: StringCtor(depth) + " levels" };
    }
    return { text: text };
  }

  function cloneArgument(value) {
    if (typeof value === "function") return show(value);
    if (value === undefined) return null;
    var out = serialise(value, MAX_ARGUMENT_CHARS);
    if (out.problem === "too_deep") return "[a value nested " + out.detail + ": too deep to show]";
    if (out.problem === "too_large") return "[a value of " + out.detail + ": too large to show]";
    if (out.problem) return show(value);
    if (out.text === null) return show(value);
    return parse(out.text);
  }

  function record(path, args) {
    if (state.calls.length >= MAX_CALLS || state.recordedChars >= MAX_RECORDED_CHARS) {
      state.callsDropped += 1;
      return;
    }
    var copied = [];
    var chars = path.length;
    var count = args.length < MAX_ARGUMENTS ? args.length : MAX_ARGUMENTS;
    for (var i = 0; i < count && state.recordedChars + chars <= MAX_RECORDED_CHARS; i++) {
      var copy = cloneArgument(args[i]);
      chars += stringify(copy).length;
      append(copied, copy);
    }
    if (args.length > MAX_ARGUMENTS) {
      append(copied, "[" + StringCtor(args.length - MAX_ARGUMENTS) + " more arguments not kept]");
    }
    if (!spend(chars)) {
      state.callsDropped += 1;
      return;
    }
    append(state.calls, { method: path, args: copied });
  }

  // The bt stand-in's tokens: those the sample gives (its "bt": {"tokens": {ID: token}}) and
  // those the code creates in this run, kept as JSON text so that each answer is a new copy.
  var btTokens = objectCreate(null);
  var btCreated = 0;
  var FAKE_TENANT = "00000000-0000-4000-8000-000000000000";

  function fakeTokenId() {
    btCreated += 1;
    var digits = StringCtor(btCreated);
    while (digits.length < 12) digits = "0" + digits;
    return "00000000-0000-4000-8000-" + digits;
  }

  function keepToken(id, token) {
    var kept = {
      id: id,
      type: typeof token.type === "string" ? token.type : "token",
      tenant_id: typeof token.tenant_id === "string" ? token.tenant_id : FAKE_TENANT,
      data: token.data === undefined ? null : token.data,
      containers: isArray(token.containers) ? token.containers : ["/general/high/"],
      metadata: token.metadata !== null && typeof token.metadata === "object" ? token.metadata : {},
      fingerprint: typeof token.fingerprint === "string" ? token.fingerprint : "fake-" + id,
    };
    // No created_at unless the sample gives one: a run's answer stays the same run after run.
    if (typeof token.created_at === "string") kept.created_at = token.created_at;
    btTokens[id] = stringify(kept);
    return parse(btTokens[id]);
  }

  function loadTokens(fixtures) {
    var tokens = fixtures !== null && typeof fixtures === "object" ? fixtures.tokens : null;
    if (tokens === null || typeof tokens !== "object") return;
    var ids = ownKeys(tokens);
    for (var i = 0; i < ids.length; i++) {
      var token = tokens[ids[i]];
      if (token !== null && typeof token === "object") keepToken(StringCtor(ids[i]), token);
    }
  }

  // What a call of the stand-in answers: plausible fake tokens for tokens.create (kept for a
  // later retrieve) and tokens.retrieve (the sample's or the run's own, else the service's
  // "not found"); null for every other call. Nothing real is ever reached.
  function btAnswer(path, args) {
    if (path === "tokens.create") {
      var given = args.length > 0 ? cloneArgument(args[0]) : null;
      var token = given !== null && typeof given === "object" && !isArray(given) ? given : {};
      var id = typeof token.id === "string" && token.id ? token.id : fakeTokenId();
      return promiseResolve(keepToken(id, token));
    }
    if (path === "tokens.retrieve") {
      var wanted = args.length > 0 ? StringCtor(args[0]) : "";
      var known = btTokens[wanted];
      if (known === undefined) {
        return promiseReject(
          new ErrorCtor(
            "bt.tokens.retrieve: no token " + stringify(wanted) + " in this test-run (404); " +
              "give it in the sample request's bt.tokens, or create it first"
          )
        );
      }
      return promiseResolve(parse(known));
    }
    return promiseResolve(null);
  }

  // Any property is another recorder and any call is recorded; tokens.create and
  // tokens.retrieve answer fake tokens (btAnswer), any other call a promise of null. `then` is
  // absent, so awaiting `bt` or one of its properties does not look like awaiting a promise.
  function recorder(path) {
    var target = function () {};
    return new Proxy(target, {
      get: function (t, property) {
        if (typeof property === "symbol" || property === "then" || property === "toJSON") {
          return undefined;
        }
        return recorder(clipName(path ? path + "." + property : StringCtor(property)));
      },
      apply: function (t, self, args) {
        record(path || "bt", args);
        return btAnswer(path, args);
      },
      construct: function (t, args) {
        record("new " + (path || "bt"), args);
        return recorder(path || "bt");
      },
    });
  }

  function describeError(error) {
    if (error !== null && (typeof error === "object" || typeof error === "function")) {
      var name = safely(function () { return StringCtor(error.name || "Error"); }, "Error");
      var message = safely(function () {
        return StringCtor(error.message === undefined ? show(error) : error.message);
      }, "(the error's message could not be read)");
      var stack = safely(function () { return error.stack; }, null);
      var described = {
        name: clip(name),
        message: clip(message),
        stack: typeof stack === "string" ? clip(stack) : null,
      };
      if (state.kind === "reactor") reactorErrorParts(error, described);
      return described;
    }
    return { name: "thrown value", message: clip(show(error)), stack: null };
  }

  // A reactor's error may say how the service answers (the vendor's reactor error types):
  // an HTTP error `status` and the `errors` to show, carried out as numbers and JSON text.
  function reactorErrorParts(error, described) {
    var status = safely(function () { return error.status; }, undefined);
    if (typeof status === "number" && isInteger(status) && status >= 400 && status <= 599) {
      described.status = status;
    }
    var errors = safely(function () { return error.errors; }, undefined);
    if (errors !== undefined && errors !== null && typeof errors !== "function") {
      var out = safely(function () { return serialise(errors, MAX_ARGUMENT_CHARS); }, {});
      if (typeof out.text === "string") described.errors_json = out.text;
    }
  }

  // The sandbox holds no modules: a require or an import() says so. The error is made here,
  // in the sandbox's realm, so catching it gives the code nothing of the host's.
  function refuseRequire(name) {
    throw new ErrorCtor(
      "require(" + stringify(clip(StringCtor(name))) + ") is refused in a test-run: " +
      "the sandbox has no modules (no file system, network or processes)"
    );
  }

  function importRefused(specifier) {
    return new ErrorCtor(
      "import(" + stringify(clip(StringCtor(specifier))) + ") is refused in a test-run: " +
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
    if (isArray(value)) return "array";
    return typeof value;
  }

  // ----- timers and finalizers: a queue drained by __tcTick, one task per evaluation -----

  var tasks = [];
  var clock = 0;
  var nextId = 1;

  function enqueue(task) {
    append(tasks, task);
  }

  function removeTask(id) {
    for (var i = 0; i < tasks.length; i++) {
      if (tasks[i].id === id) {
        arraySplice(tasks, i, 1);
        return;
      }
    }
  }

  function Timeout(id) {
    this.id = id;
  }
  defineProperty(Timeout, "name", { value: "Timeout" });
  Timeout.prototype.ref = function () { setRef(this, true); return this; };
  Timeout.prototype.unref = function () { setRef(this, false); return this; };
  Timeout.prototype.hasRef = function () {
    var task = findTask(this);
    return task ? task.ref : false;
  };
  Timeout.prototype.refresh = function () {
    var task = findTask(this);
    if (task) task.due = clock + task.delay;
    return this;
  };
  Timeout.prototype[Symbol.toPrimitive] = function () { return this.id; };

  function findTask(timeout) {
    var id = timeout instanceof Timeout ? timeout.id : timeout;
    for (var i = 0; i < tasks.length; i++) if (tasks[i].id === id) return tasks[i];
    return null;
  }

  function setRef(timeout, ref) {
    var task = findTask(timeout);
    if (task) task.ref = ref;
  }

  function timer(repeat) {
    return function (callback, delay) {
      if (typeof callback !== "function") {
        throw new TypeErrorCtor('The "callback" argument must be of type function');
      }
      var args = [];
      for (var i = 2; i < arguments.length; i++) append(args, arguments[i]);
      var ms = +delay;
      if (!(ms >= 1 && ms <= 2147483647)) ms = 1;
      var id = nextId++;
      enqueue({ id: id, due: clock + ms, delay: ms, fn: callback, args: args, repeat: repeat, ref: true });
      return new Timeout(id);
    };
  }

  function clearTimer(timeout) {
    if (timeout === null || timeout === undefined) return;
    removeTask(timeout instanceof Timeout ? timeout.id : +timeout);
  }

  function setImmediateTask(callback) {
    if (typeof callback !== "function") {
      throw new TypeErrorCtor('The "callback" argument must be of type function');
    }
    var args = [];
    for (var i = 1; i < arguments.length; i++) append(args, arguments[i]);
    var id = nextId++;
    enqueue({ id: id, due: clock, delay: 0, fn: callback, args: args, repeat: false, ref: true });
    return new Timeout(id);
  }

  function queueMicrotaskFn(callback) {
    if (typeof callback !== "function") {
      throw new TypeErrorCtor('The "callback" argument must be of type function');
    }
    promiseThen(promiseResolve(undefined), function () { callback(); });
  }

  // A finalizer's callback is queued as a task, never run by the garbage collector itself:
  // the collector may run after the host has stopped watching the time.
  var registries = new WeakMapCtor();
  function registryOf(self) {
    var real = weakGet(registries, self);
    if (!real) throw new TypeErrorCtor("not a FinalizationRegistry");
    return real;
  }
  class SandboxFinalizationRegistry {
    constructor(cleanup) {
      if (typeof cleanup !== "function") {
        throw new TypeErrorCtor("FinalizationRegistry: cleanup must be callable");
      }
      var real = new RealFinalizationRegistry(function (held) {
        enqueue({ id: nextId++, due: clock, delay: 0, fn: cleanup, args: [held], repeat: false, ref: false });
      });
      weakSet(registries, this, real);
    }
    register(target, held, token) {
      return realRegister(registryOf(this), target, held, token);
    }
    unregister(token) {
      return realUnregister(registryOf(this), token);
    }
  }
  defineProperty(SandboxFinalizationRegistry, "name", { value: "FinalizationRegistry" });
  defineProperty(SandboxFinalizationRegistry.prototype, Symbol.toStringTag, {
    value: "FinalizationRegistry",
    configurable: true,
  });

  // Runs the next task (timer, immediate, finalizer callback). Answers a number the host reads
  // without touching anything of the sandbox: 1 the code's outcome is known, 2 a task ran,
  // 4 tasks are left (counting only referenced ones once the outcome is known).
  function tick() {
    var flags = 0;
    if (tasks.length > 0) {
      var best = 0;
      for (var i = 1; i < tasks.length; i++) {
        if (tasks[i].due < tasks[best].due) best = i;
      }
      var task = tasks[best];
      if (task.due > clock) clock = task.due;
      if (task.repeat) task.due = clock + task.delay;
      else arraySplice(tasks, best, 1);
      flags |= 2;
      try {
        apply(task.fn, undefined, task.args);
      } catch (error) {
        // Node would end the process on an uncaught exception in a timer.
        if (state.status === "pending") settle("threw", error);
        else logger("error")("Uncaught exception in a timer or finalizer after the code returned:", error);
      }
    }
    if (state.status !== "pending") flags |= 1;
    for (var j = 0; j < tasks.length; j++) {
      if (tasks[j].ref || state.status === "pending") {
        flags |= 4;
        break;
      }
    }
    return flags;
  }

  // ----- freezing the intrinsics -----

  // Once frozen, a prototype's data property could no longer be shadowed by assignment on an
  // object inheriting it (`this.name = ...` in an Error subclass, `obj.toString = ...`): each
  // becomes a getter of the same value and a setter that defines the property on the object
  // assigned to, as an assignment would without the freeze.
  function enableOverride(proto, key, desc) {
    var value = desc.value;
    // Methods (no `prototype` object of their own), frozen with the rest.
    var accessors = {
      get() {
        return value;
      },
      set(newValue) {
        if (this === proto) {
          throw new TypeErrorCtor(
            "Cannot assign to read only property '" + StringCtor(key) + "' of a frozen intrinsic"
          );
        }
        if (hasOwn(this, key)) {
          this[key] = newValue;
        } else {
          defineProperty(this, key, {
            value: newValue,
            writable: true,
            enumerable: true,
            configurable: true,
          });
        }
      },
    };
    freeze(accessors.get);
    freeze(accessors.set);
    defineProperty(proto, key, {
      get: accessors.get,
      set: accessors.set,
      enumerable: desc.enumerable,
      configurable: false,
    });
  }

  function hiddenIntrinsics() {
    var found = [];
    var tries = [
      function () { return getPrototypeOf(function* () {}); },
      function () { return getPrototypeOf(async function () {}); },
      function () { return getPrototypeOf(async function* () {}); },
      function () { return getPrototypeOf([][Symbol.iterator]()); },
      function () { return getPrototypeOf(new Map()[Symbol.iterator]()); },
      function () { return getPrototypeOf(new Set()[Symbol.iterator]()); },
      function () { return getPrototypeOf(""[Symbol.iterator]()); },
      function () { return getPrototypeOf(/a/g[Symbol.matchAll]("")); },
      function () { return getPrototypeOf(new Intl.Segmenter().segment("")); },
      function () { return getPrototypeOf(new Intl.Segmenter().segment("")[Symbol.iterator]()); },
      function () { return getPrototypeOf(Iterator.from([]).map(function (x) { return x; })); },
      function () { return getPrototypeOf(Iterator.from({ next: function () {} })); },
    ];
    for (var i = 0; i < tries.length; i++) {
      try {
        var proto = tries[i]();
        if (proto) append(found, proto);
      } catch (error) {
        // This engine does not have that intrinsic.
      }
    }
    return found;
  }

  function harden(roots) {
    var seen = new SetCtor();
    var prototypes = new SetCtor();
    var queue = roots;
    var objects = [];
    while (queue.length > 0) {
      var item = queue[queue.length - 1];
      queue.length -= 1;
      if (item === null || (typeof item !== "object" && typeof item !== "function")) continue;
      if (setHas(seen, item)) continue;
      setAdd(seen, item);
      append(objects, item);
      var proto = getPrototypeOf(item);
      if (proto !== null) {
        // A constructor that is the prototype of others (Error of TypeError) is no prototype
        // of instances: V8 reads Error.stackTraceLimit as plain data.
        if (typeof proto !== "function") setAdd(prototypes, proto);
        append(queue, proto);
      }
      var keys = ownKeys(item);
      for (var k = 0; k < keys.length; k++) {
        var desc = getOwnPropertyDescriptor(item, keys[k]);
        if (hasOwn(desc, "value")) {
          append(queue, desc.value);
          if (keys[k] === "prototype" && typeof item === "function" && desc.value !== null &&
              (typeof desc.value === "object" || typeof desc.value === "function")) {
            setAdd(prototypes, desc.value);
          }
        } else {
          append(queue, desc.get);
          append(queue, desc.set);
        }
      }
    }
    for (var o = 0; o < objects.length; o++) {
      var object = objects[o];
      if (setHas(prototypes, object)) {
        var names = ownKeys(object);
        for (var n = 0; n < names.length; n++) {
          var d = getOwnPropertyDescriptor(object, names[n]);
          if (hasOwn(d, "value") && d.writable && d.configurable) enableOverride(object, names[n], d);
        }
      }
    }
    for (var f = 0; f < objects.length; f++) freeze(objects[f]);
  }

  function define(name, value) {
    defineProperty(global, name, {
      value: value,
      writable: false,
      enumerable: false,
      configurable: false,
    });
  }

  define("console", sandboxConsole);
  // Node's timer globals, run by the queue above (the embedded engine's own, which fire
  // outside any evaluation, are replaced).
  var timerGlobals = {
    setTimeout: timer(false),
    setInterval: timer(true),
    setImmediate: setImmediateTask,
    clearTimeout: clearTimer,
    clearInterval: clearTimer,
    clearImmediate: clearTimer,
    queueMicrotask: queueMicrotaskFn,
  };
  var timerNames = ownKeys(timerGlobals);
  for (var t = 0; t < timerNames.length; t++) {
    defineProperty(timerGlobals[timerNames[t]], "name", { value: timerNames[t] });
    if (hasOwn(global, timerNames[t])) {
      // A `var` of the embedding (non-configurable, but writable): made read-only.
      defineProperty(global, timerNames[t], {
        value: timerGlobals[timerNames[t]],
        writable: false,
        enumerable: true,
        configurable: false,
      });
    } else {
      define(timerNames[t], timerGlobals[timerNames[t]]);
    }
  }
  if (hasOwn(global, "__timer_manager")) {
    defineProperty(global, "__timer_manager", {
      value: undefined,
      writable: false,
      enumerable: true,
      configurable: false,
    });
  }
  // Atomics.waitAsync settles its promise from outside any evaluation (it is what the embedded
  // engine's own timers were made of): not offered.
  if (typeof Atomics === "object" && hasOwn(Atomics, "waitAsync")) delete Atomics.waitAsync;
  // WebAssembly.compile and instantiate answer from an engine task, which may come after
  // the host stopped watching the time: compiled here, in the evaluation, instead.
  if (typeof WebAssembly === "object" && WebAssembly !== null) {
    var WasmModule = WebAssembly.Module;
    var WasmInstance = WebAssembly.Instance;
    var wasmNow = {
      compile: function compile(bytes) {
        return new PromiseCtor(function (resolve) {
          resolve(new WasmModule(bytes));
        });
      },
      instantiate: function instantiate(source, imports) {
        return new PromiseCtor(function (resolve) {
          if (source instanceof WasmModule) {
            resolve(new WasmInstance(source, imports));
          } else {
            var compiled = new WasmModule(source);
            resolve({ module: compiled, instance: new WasmInstance(compiled, imports) });
          }
        });
      },
    };
    var wasmNames = ["compile", "instantiate"];
    for (var w = 0; w < wasmNames.length; w++) {
      defineProperty(WebAssembly, wasmNames[w], {
        value: wasmNow[wasmNames[w]],
        writable: true,
        enumerable: false,
        configurable: true,
      });
    }
    var streaming = ["compileStreaming", "instantiateStreaming"];
    for (var st = 0; st < streaming.length; st++) {
      if (hasOwn(WebAssembly, streaming[st])) delete WebAssembly[streaming[st]];
    }
  }
  if (RealFinalizationRegistry !== null) {
    defineProperty(global, "FinalizationRegistry", {
      value: SandboxFinalizationRegistry,
      writable: true,
      enumerable: false,
      configurable: true,
    });
  }

  define("__tcPrepare", function (requestJson, kind, withBt) {
    var request = parse(requestJson);
    var fixtures = request !== null && typeof request === "object" ? request.bt : undefined;
    if (fixtures !== undefined) delete request.bt;  // the sample's tokens, not the code's
    if (kind === "transform" && withBt) {
      loadTokens(fixtures);
      request.bt = recorder("");
    }
    state.request = request;
    state.kind = kind;
  });

  define("__tcDefine", function (factory) {
    state.factory = factory;
  });

  define("__tcImportRefused", importRefused);

  // Node's host hands over each promise its rejection tracking found unhandled, and each one
  // handled later, untouched: kept here, read only by __tcOutcome under the time limit.
  define("__tcRejected", function (promise, reason) {
    if (state.rejections.length < MAX_REJECTIONS) {
      append(state.rejections, { promise: promise, reason: reason });
    }
  });

  define("__tcHandled", function (promise) {
    for (var i = 0; i < state.rejections.length; i++) {
      if (state.rejections[i].promise === promise) {
        arraySplice(state.rejections, i, 1);
        return;
      }
    }
  });

  // The embedded engine compiles the code inside a wrapper: "" when `body` parses as a
  // function body (with the module's parameters, or none), else the SyntaxError's message.
  // Compiling runs nothing.
  define("__tcParses", function (body, withParameters) {
    try {
      if (withParameters) new FunctionCtor("module", "exports", "require", body);
      else new FunctionCtor(body);
      return "";
    } catch (error) {
      return safely(function () { return StringCtor(error.message); }, "SyntaxError");
    }
  });

  // Calls the code; answers tick()'s flags. A returned promise settles in the promise jobs
  // that run after this evaluation (inside it, for Node's "afterEvaluate" microtasks).
  define("__tcInvoke", function () {
    try {
      var module = { exports: {} };
      apply(state.factory, undefined, [module, module.exports, refuseRequire]);
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
        return 1;
      }
      var out = exported(state.request);
      var then = null;
      if (out !== null && (typeof out === "object" || typeof out === "function")) then = out.then;
      if (typeof then === "function") {
        promiseThen(
          promiseResolve(out),
          function (value) { settle("ok", value); },
          function (error) { settle("threw", error); }
        );
      } else {
        settle("ok", out);
      }
    } catch (error) {
      settle("threw", error);
    }
    return state.status !== "pending" ? 1 : 0;
  });

  define("__tcTick", tick);

  define("__tcSettled", function () {
    return state.status !== "pending" ? 1 : 0;
  });

  define("__tcOutcome", function () {
    if (state.rejections.length > 0 && (state.status === "ok" || state.status === "pending")) {
      // Node.js (the service's runtime) ends the process on a rejection left unhandled.
      state.status = "threw";
      state.value = undefined;
      state.error = describeError(state.rejections[0].reason);
      state.error.message = clip("Unhandled promise rejection: " + state.error.message);
    }
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
      var serialised = serialise(state.value, MAX_RESULT_CHARS);
      if (serialised.problem === "unserializable") {
        out.status = "unserializable";
        out.error = describeError(serialised.error);
      } else if (serialised.problem) {
        out.status = serialised.problem;
        out.error = {
          name: serialised.problem === "too_deep" ? "ResultTooDeep" : "ResultTooLarge",
          message: "the returned " + out.result_kind + " is " +
            (serialised.problem === "too_deep" ? "nested " : "") + serialised.detail,
          stack: null,
        };
      } else {
        out.result_json = serialised.text;
      }
    }
    return stringify(out);
  });

  // Last: every intrinsic reachable from the global object, and the hidden ones, frozen; the
  // global bindings of the intrinsics made read-only (Node reads Error.prepareStackTrace
  // through the global `Error`).
  var roots = hiddenIntrinsics();
  append(roots, Timeout);
  var globalNames = ownKeys(global);
  for (var g = 0; g < globalNames.length; g++) {
    var name = globalNames[g];
    var desc = getOwnPropertyDescriptor(global, name);
    if (hasOwn(desc, "value")) append(roots, desc.value);
    else {
      append(roots, desc.get);
      append(roots, desc.set);
    }
    if (desc.configurable && name !== "globalThis") {
      // The whole descriptor each time: Node's vm takes a missing `value` for undefined.
      if (hasOwn(desc, "value")) {
        defineProperty(global, name, {
          value: desc.value,
          writable: false,
          enumerable: desc.enumerable,
          configurable: false,
        });
      } else {
        defineProperty(global, name, {
          get: desc.get,
          set: desc.set,
          enumerable: desc.enumerable,
          configurable: false,
        });
      }
    }
  }
  var rootsWithoutGlobal = [];
  for (var r = 0; r < roots.length; r++) if (roots[r] !== global) append(rootsWithoutGlobal, roots[r]);
  append(rootsWithoutGlobal, getPrototypeOf(global));
  harden(rootsWithoutGlobal);
})();
