"""The evidence pack: what an auditor asks for, in one folder that says if it was changed.

`tenant-console review --evidence DIR [--since WHEN] [--until WHEN]` writes, into a folder
that is new or empty:

- `access-review.json` and `access-review.csv`: the access review (grants, people, activity);
- `configuration.json`: the tenant's configuration as `export` writes it (console.estate),
  with every configuration value redacted; no key is ever part of it;
- `logs.jsonl`: the audit log entries of the period, oldest first, one JSON object a line,
  from the profile's archive (console.audit.archive) right after bringing it up to date;
- `manifest.json`: each file's SHA-256 and size, the tool's version, the profile, the tenant,
  the period, when, and `manifest_sha256`: the SHA-256 of the manifest's canonical JSON
  (keys sorted, no spaces, UTF-8) without that field.

`review --verify DIR` recomputes every digest and names each file changed, missing or extra.
The digests say whether the pack was changed since it was written, not who wrote it: keep a
copy of `manifest_sha256` where the auditor can see it (a ticket, an e-mail) to pin it.

A package of its own above console.audit and console.estate (the archive, the configuration
export), which it uses, and below the command line; never Textual: `manifest` (the names,
the period, the digests), `folder` (where it is written, and how), `contents` (what goes in),
`pack` (all of it, `write_evidence`) and `verify` (`verify_pack`).

Every file is created by this run (never one already there: the folder must be new or empty),
readable by its owner only (0600). Before anything is written, every file is checked for the
key the console uses: one found refuses the pack whole.
"""
