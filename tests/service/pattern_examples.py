"""What each documented `pattern` means, by example: values its validator accepts and refuses.

tests/service/test_documented_patterns.py checks every `pattern` of the served OpenAPI document
against these tables, read both as a JSON Schema validator reads it (ECMA-262) and as Python's
`re` does, next to the validator the service runs. Destination URLs have their own table
(destination_urls.py), shared with the tests of the service's answers.
"""

from __future__ import annotations

import base64

PNG_1X1 = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082"
    )
).decode()
"""A 1x1 PNG: 67 bytes, so its base64 ends with `==`."""

ICONS_VALID = [
    f"data:image/png;base64,{PNG_1X1}",  # padded with ==
    "data:image/jpeg;base64,/9j/4A==",
    "data:image/jpg;base64,/9j/4AA=",  # padded with =
    "data:image/png;base64,YWJj",  # a multiple of three bytes: no padding
    "data:image/png;base64,+/+/",
    "data:image/png;base64," + "QUJD" * 500,
]

ICONS_INVALID = [
    ("", "empty"),
    ("data:image/png;base64,", "empty payload"),
    ("data:image/png;base64,YQ", "unpadded"),
    ("data:image/png;base64,YWI", "unpadded"),
    ("data:image/png;base64,YQ=", "short padding"),
    ("data:image/png;base64,YWJj=", "excess padding"),
    ("data:image/png;base64,YWJj====", "excess padding"),
    ("data:image/png;base64,YQ==YWJj", "data after padding"),
    ("data:image/png;base64,=YWJ", "leading padding"),
    ("data:image/png;base64,YW Jj", "space"),
    ("data:image/png;base64,YWJj\n", "trailing line break"),
    ("data:image/png;base64,YW\nJj", "line break"),
    ("data:image/png;base64,-_-_", "URL-safe alphabet"),
    ("data:image/gif;base64,R0lGODlh", "GIF"),
    ("data:image/svg+xml;base64,PHN2Zz4=", "SVG"),
    ("data:image/PNG;base64,YWJj", "media type in capitals"),
    ("data:image/png,YWJj", "not base64"),
    ("data:image/png;charset=utf-8;base64,YWJj", "parameters"),
    (" data:image/png;base64,YWJj", "leading space"),
    ("https://example.com/icon.png", "not a data URL"),
]

CONFIGURATION_NAMES_VALID = [
    "SECRET",
    "a",
    "api key",
    "line\nbreak",  # a configuration name is not a display name: only `.` is refused
    "ünïcode_✓",
    "n" * 200,
]

CONFIGURATION_NAMES_INVALID = [
    ("", "empty"),
    ("card.number", "nested"),
    (".", "a dot"),
    ("trailing.", "a dot"),
    ("n" * 201, "too long"),
]

NAMES_VALID = [
    "A",
    "Acme Payments",
    "Zürich ✓ — 東京 \u200d end",
    "non\u00a0breaking space",  # Zs, not a control character
    "%_*",
    "n" * 200,
]

NAMES_INVALID = [
    ("", "empty"),
    ("n" * 201, "too long"),
    ("Acme\x00", "NUL"),
    ("\t", "tab"),
    ("two\nlines", "line break"),
    ("trailing line break\n", "line break"),
    ("\r", "carriage return"),
    ("\x1b[31mred", "escape sequence"),
    ("delete\x7f", "DEL"),
    ("next\x85line", "C1 (NEL)"),
    ("\x9f", "C1"),
]

NAME_FILTERS_VALID = [
    "",  # does not filter
    "a",
    "*",
    "pay*demo",
    "%_\\",
    "ß",
    "n" * 200,
]

NAME_FILTERS_INVALID = [
    ("\x00", "NUL"),
    ("a\x00b", "NUL"),
    ("\t", "tab"),
    ("x\n", "line break"),
    ("\x85", "C1"),
    ("n" * 201, "longer than any name"),
]

PACKAGE_NAMES_VALID = [
    "lodash",
    "left-pad",
    "a",
    "0x",
    "node.fetch",
    "under_score~tilde",
    "@scope/pkg",
    "@basis-theory/basis-theory-reactor-formulas-sdk-js",
]

PACKAGE_NAMES_INVALID = [
    ("", "empty"),
    ("Lodash", "upper case"),
    ("-dash", "starts with a dash"),
    (".hidden", "starts with a dot"),
    ("_under", "starts with an underscore"),
    ("@scope", "a scope alone"),
    ("@scope/", "a scope without a name"),
    ("@/pkg", "an empty scope"),
    ("a/b", "a slash without a scope"),
    ("with space", "space"),
    ("a\n", "line break"),
    ("né", "not ASCII"),
]

EMAILS_VALID = [
    "ada@example.com",
    "a@b.c",
    "first.last+tag@mail.example.co.uk",
    "o'brien@example.ie",
    "zoë@exämple.de",
    "a@b.c.d.e",
    "a" * 64 + "@" + "b" * 185 + ".com",  # 254 characters, the longest
]

EMAILS_INVALID = [
    ("", "empty"),
    ("ada", "no @"),
    ("ada@example", "no dot after the @"),
    ("@example.com", "nothing before the @"),
    ("ada@.com", "nothing between the @ and the dot"),
    ("ada@example.", "nothing after the dot"),
    ("a@b@c.d", "two @"),
    ("ada lovelace@example.com", "a space"),
    ("ada@example.com\n", "a trailing line break"),
    ("\tada@example.com", "a tab"),
    ("ada\x00@example.com", "NUL"),
    ("ada@example.com\x1b[31m", "escape sequence"),
    ("ada@example.com\x85", "C1 (NEL)"),
    ("a" * 65 + "@" + "b" * 185 + ".com", "too long"),
]

ENTITY_TYPES_VALID = ["proxy", "reactor_formula", "tenant_member", "a", "a1_", "x" * 64]

ENTITY_TYPES_INVALID = [
    ("", "empty"),
    ("Proxy", "capital letter"),
    ("_proxy", "leading underscore"),
    ("1proxy", "leading digit"),
    ("reactor-formula", "hyphen"),
    ("proxy type", "space"),
    ("proxy\n", "trailing line break"),
    ("prôxy", "not ASCII"),
    ("x" * 65, "too long"),
]

WEBHOOK_URLS_VALID = [
    "https://hooks.example.com/in",
    "http://127.0.0.1:8787/events",
    "https://example.com",
    "https://example.com/",
    "https://example.com?x=1",
    "https://example.com?x=1/then@at",  # an @ after a / is a path's
    "https://example.com/a@b",
    "https://例え.jp/フック",
    "http://[::1]:9000/x",
    "https://example.com:443/path?q=a%20b&r=[1]",
    "https://" + "a" * (2048 - 8),  # 2048 characters, the longest
]

WEBHOOK_URLS_INVALID = [
    ("", "empty"),
    ("ftp://example.com/", "not http"),
    ("HTTPS://example.com/", "the scheme in capitals"),
    ("example.com/in", "no scheme"),
    ("https://", "no host"),
    ("https:///path", "no host before the path"),
    ("https://user:pw@example.com/", "user info"),
    ("https://example.com?to=a@b", "an @ before any /"),
    ("https://example.com/#frag", "a fragment"),
    ("https://exa mple.com/", "a space"),
    ("https://example.com/\n", "a trailing line break"),
    ("https://example.com/\x1b[31m", "an escape sequence"),
    ("https://example.com/\x85", "C1 (NEL)"),
    ("https://example.com/\u2028", "a line separator"),
    ("https://example.com/\u3000", "an ideographic space"),
    ("https://" + "a" * 2041, "too long"),
]
