// A webhook receiver that verifies each delivery exactly as the vendor's docs' sample does
// (docs/api/webhooks/webhooks.mdx, "v1 Signing"): the body parsed, written again by the npm
// package json-stable-stringify, and checked with crypto.createVerify('SHA256') and
// RSA_PKCS1_PSS_PADDING against the public key the service publishes. The tests in
// tests/sdk/ use it as an implementation of the signature independent of console's.
//
//   node receiver.mjs KEY_URL      (the service's GET /keys/webhooks.v1.key)
//   node receiver.mjs --key-file PATH
//
// It listens on 127.0.0.1 (a free port) and prints one JSON line a line of news:
//   {"ready": true, "port": N}                   once listening
//   {"verified": bool, "error", "path", "signatureVersion", "type", "eventId",
//    "raw", "stable", "signature"}              for each request received
// `raw` is the body as received, `stable` what json-stable-stringify made of it (the bytes
// the signature covers), so a second verifier can check the very same bytes. It answers a
// verified delivery 200 and anything else 401.
import crypto from "node:crypto";
import { readFile } from "node:fs/promises";
import http from "node:http";
import { createRequire } from "node:module";

// json-stable-stringify is CommonJS, as the docs' sample `require`s it.
const require = createRequire(import.meta.url);
const stringify = require("json-stable-stringify");

// The docs' sample, with the key passed in (theirs reads it from a constant) and the header
// read as Node's http names it (lower case).
const verifyWebhook = (publicKey, rawBody, signature) => {
  const body = JSON.parse(rawBody);
  const verifier = crypto.createVerify("SHA256");

  verifier.update(stringify(body));

  const isVerified = verifier.verify(
    {
      key: publicKey,
      padding: crypto.constants.RSA_PKCS1_PSS_PADDING,
    },
    Buffer.from(signature, "base64"),
  );

  return isVerified;
};

async function publicKeyFrom(args) {
  if (args[0] === "--key-file" && args[1]) return readFile(args[1], "utf8");
  if (args[0]) {
    const answer = await fetch(args[0]);
    if (!answer.ok) throw new Error(`GET ${args[0]} answered ${answer.status}`);
    return answer.text();
  }
  process.stderr.write("usage: node receiver.mjs KEY_URL | --key-file PATH\n");
  process.exit(2);
}

function report(line) {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function judge(publicKey, raw, signature) {
  // What the docs' sample would decide; a body that is no JSON or a missing signature is a
  // delivery not verified (the sample would throw), said with the reason.
  let body = null;
  let stable = null;
  try {
    body = JSON.parse(raw);
    stable = stringify(body);
  } catch (error) {
    return { verified: false, error: `body: ${error.message}`, body, stable };
  }
  if (typeof signature !== "string" || signature === "") {
    return { verified: false, error: "no BT-SIGNATURE header", body, stable };
  }
  try {
    return { verified: verifyWebhook(publicKey, raw, signature), error: null, body, stable };
  } catch (error) {
    return { verified: false, error: `verify: ${error.message}`, body, stable };
  }
}

async function main() {
  const publicKey = await publicKeyFrom(process.argv.slice(2));
  crypto.createPublicKey(publicKey); // a key that is no key fails here, not at each delivery
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const signature = request.headers["bt-signature"];
      const { verified, error, body, stable } = judge(publicKey, raw, signature);
      report({
        verified,
        error,
        method: request.method,
        path: request.url,
        signatureVersion: request.headers["bt-signature-version"] ?? null,
        type: body?.event?.type ?? null,
        eventId: body?.event?.id ?? null,
        raw,
        stable,
        signature: signature ?? null,
      });
      response.writeHead(verified ? 200 : 401, { "content-type": "text/plain" });
      response.end(verified ? "verified\n" : "not verified\n");
    });
  });
  server.listen(0, "127.0.0.1", () => report({ ready: true, port: server.address().port }));
  // The test ends the receiver by closing its stdin (or a signal): no process left behind.
  process.stdin.resume();
  process.stdin.on("end", () => process.exit(0));
}

main().catch((error) => {
  process.stderr.write(`receiver.mjs: ${error?.stack ?? error}\n`);
  process.exit(2);
});
