// Runs a batch of calls through the vendor's Node SDK (@basis-theory/node-sdk) and prints
// what the SDK made of each answer, as JSON: the tests in tests/sdk/ use the SDK as an
// independent client of the local service, and one Node start (about a second: loading the
// SDK is most of it) serves many calls.
//
//   node calls.mjs BASE_URL < calls.json
//
// The API keys are in $BT_API_KEYS, never an argument (ps shows those): a JSON object naming
// each key; a call uses the one named "default" unless it names another ("key").
//
// calls.json is a list of calls, run in order:
//   {"call": "reactors.results.get", "args": ["id", {"$from": [0, "value", "asyncReactorRequestId"]}],
//    "walk": false, "poll": {"while": {"status": "pending"}, "seconds": 15}, "key": "default"}
// - call: a dotted path from the client to a method; args: its arguments (JSON).
// - key: the name of the key (in $BT_API_KEYS) the call is made with; one client a key.
// - {"$from": [index, key, ...]} anywhere in args is replaced by that part of an earlier
//   call's result (its index in the list, then keys into what was printed for it); when
//   that is missing (the earlier call failed) the call is not sent: {"error": "Unresolved"}.
// - {"$date": "2026-11-22T10:00:00Z"} anywhere in args is that JavaScript Date (the SDK's
//   date filters take a Date).
// - walk (lists): every item, through the SDK's own pager (`for await`), not just page one.
// - poll: the call is repeated while its value has every key/value of `while`, for at most
//   `seconds` (a condition with a deadline; the interval is short and fixed).
// Each result is {"ok": true, "status", "value", "headers"} or {"ok": false, "error" (the
// SDK error's class), "status", "body", "message"}; a page's value is {"data", "response",
// "hasNextPage"}, a walk's is {"items"}.
import { BasisTheoryClient } from "@basis-theory/node-sdk";

const POLL_INTERVAL_MS = 20;

function readStdin() {
  return new Promise((resolve, reject) => {
    const chunks = [];
    process.stdin.on("data", (chunk) => chunks.push(chunk));
    process.stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    process.stdin.on("error", reject);
  });
}

function pick(results, path) {
  let value = results;
  for (const key of path) {
    if (value === null || value === undefined || !(key in Object(value))) {
      throw new Error(`$from ${JSON.stringify(path)}: no ${JSON.stringify(key)} there`);
    }
    value = value[key];
  }
  return value;
}

function resolveRefs(value, results) {
  if (Array.isArray(value)) return value.map((item) => resolveRefs(item, results));
  if (value !== null && typeof value === "object") {
    if (Array.isArray(value.$from)) return pick(results, value.$from);
    if (typeof value.$date === "string") return new Date(value.$date);
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resolveRefs(item, results)]),
    );
  }
  return value;
}

function method(client, dotted) {
  const parts = dotted.split(".");
  let owner = client;
  for (const part of parts.slice(0, -1)) owner = owner[part];
  const fn = owner?.[parts[parts.length - 1]];
  if (typeof fn !== "function") throw new Error(`the SDK has no method ${dotted}`);
  return fn.bind(owner);
}

function headersOf(rawResponse) {
  if (!rawResponse?.headers) return {};
  return Object.fromEntries(rawResponse.headers.entries());
}

function failure(error) {
  // The SDK's errors (BasisTheoryError and its subclasses) carry statusCode and body.
  return {
    ok: false,
    error: error?.constructor?.name ?? typeof error,
    status: error?.statusCode ?? null,
    body: error?.body ?? null,
    message: String(error?.message ?? error),
  };
}

async function once(fn, args, walk) {
  const answer = fn(...args);
  if (typeof answer?.withRawResponse === "function") {
    const { data, rawResponse } = await answer.withRawResponse();
    return { ok: true, status: rawResponse.status, value: data, headers: headersOf(rawResponse) };
  }
  const page = await answer; // a list: the SDK's Page
  if (walk) {
    const items = [];
    for await (const item of page) items.push(item);
    return { ok: true, status: page.rawResponse.status, value: { items } };
  }
  return {
    ok: true,
    status: page.rawResponse.status,
    value: { data: page.data, response: page.response, hasNextPage: page.hasNextPage() },
    headers: headersOf(page.rawResponse),
  };
}

function matches(value, pattern) {
  if (value === null || typeof value !== "object") return false;
  return Object.entries(pattern).every(([key, expected]) => value[key] === expected);
}

async function run(clients, call, results) {
  const client = clients[call.key ?? "default"];
  if (!client) throw new Error(`no key named ${JSON.stringify(call.key)} in BT_API_KEYS`);
  const fn = method(client, call.call);
  let args;
  try {
    args = resolveRefs(call.args ?? [], results);
  } catch (error) {
    // An earlier call failed: this one is not sent, and says why.
    return { ok: false, error: "Unresolved", status: null, body: null, message: error.message };
  }
  const deadline = Date.now() + 1000 * (call.poll?.seconds ?? 0);
  let polls = 0;
  for (;;) {
    polls += 1;
    let result;
    try {
      result = await once(fn, args, call.walk === true);
    } catch (error) {
      result = failure(error);
    }
    if (!call.poll || !result.ok || !matches(result.value, call.poll.while)) {
      return call.poll ? { ...result, polls } : result;
    }
    if (Date.now() > deadline) {
      return { ...result, polls, timedOut: true };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

async function main() {
  const [baseUrl] = process.argv.slice(2);
  const keys = JSON.parse(process.env.BT_API_KEYS ?? "null");
  if (!baseUrl || keys === null || typeof keys !== "object") {
    process.stderr.write('usage: BT_API_KEYS=\'{"default": KEY}\' node calls.mjs BASE_URL < calls.json\n');
    process.exit(2);
  }
  const calls = JSON.parse(await readStdin());
  // baseUrl: the SDK's option for a URL of one's own (`environment` names the vendor's hosts
  // and is read only when baseUrl is absent). maxRetries 0: the SDK would otherwise send a
  // POST again after a 5xx (never retry a POST), and the tests see every answer as it is.
  const clients = Object.fromEntries(
    Object.entries(keys).map(([name, apiKey]) => [
      name,
      new BasisTheoryClient({ apiKey, baseUrl, maxRetries: 0 }),
    ]),
  );
  const results = [];
  for (const call of calls) results.push(await run(clients, call, results));
  process.stdout.write(JSON.stringify(results));
}

main().catch((error) => {
  process.stderr.write(`calls.mjs: ${error?.stack ?? error}\n`);
  process.exit(2);
});
