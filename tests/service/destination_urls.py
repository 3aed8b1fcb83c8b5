"""What a proxy's destination URL is, by example: one table for the validator and the
OpenAPI document alike (tests/service/test_destination_url.py).

A destination URL is an absolute `https://` URL (RFC 3986, no fragment) with a host (a DNS
name or an IPv4 address), an optional port from 1 to 65535, no user info, and only URL
characters: anything else, whitespace and control characters included, is percent-encoded.
At most 400 characters.
"""

from __future__ import annotations

VALID = [
    "https://example.com",
    "https://example.com/",
    "https://api.stripe.com/v1/charges",
    "https://echo.example.com/post?x=1&y=two",  # a query string
    "https://example.com/search?q=a%20b&tags=x,y;z",
    "https://example.com:443/path",
    "https://example.com:1",
    "https://example.com:65535/",
    "https://EXAMPLE.com/Path/With/Case",
    "https://localhost:8443/hook",
    "https://10.0.0.1/internal",
    "https://255.255.255.255",
    "https://xn--bcher-kva.example/",
    "https://a-b.c-d.example/~user/file.json",
    "https://3com.example/",
    "https://example.com/a@b/c:d",  # @ and : in the path are not user info
    "https://example.com/%E2%9C%93",
    "https://example.com/?",
    "https://example.com//double",
    "https://example.com/" + "a" * 370,  # 390 characters: within the 400 limit
    "https://example.com/" + "a" * 380,  # 400 characters: the limit itself
]

INVALID = [
    ("", "empty"),
    ("http://example.com", "not https"),
    ("ftp://example.com", "not https"),
    ("HTTPS://example.com", "scheme in capitals"),
    ("example.com/path", "not absolute"),
    ("//example.com/path", "no scheme"),
    ("https://", "no host"),
    ("https:///path", "no host"),
    ("https://example.com:99999/", "port out of range"),
    ("https://example.com:65536", "port out of range"),
    ("https://example.com:0/", "port zero"),
    ("https://example.com:/", "empty port"),
    ("https://example.com:08443/", "port with a leading zero"),
    ("https://example.com:https/", "port not a number"),
    ("https://exa mple.com/", "space in the host"),
    ("https://example.com/a b", "space in the path"),
    ("https://example.com/a\tb", "tab"),
    ("https://example.com/\n", "trailing line break"),
    ("https://example.com/\x00", "NUL"),
    ("https://user@example.com/", "user info"),
    ("https://user:secret@example.com/", "user info with a password"),
    ("https://@example.com/", "empty user info"),
    ("https://example.com/#top", "fragment"),
    ("https://example.com/%zz", "bad percent-encoding"),
    ("https://example.com/%4", "bad percent-encoding"),
    ("https://example.com/café", "non-ASCII, not percent-encoded"),
    ("https://bücher.example/", "non-ASCII host"),
    ("https://-example.com/", "label starting with a hyphen"),
    ("https://example-.com/", "label ending with a hyphen"),
    ("https://example..com/", "empty label"),
    ("https://example.com./", "trailing dot"),
    ("https://under_score.example/", "underscore in the host"),
    ("https://256.1.1.1/", "IPv4 octet out of range"),
    ("https://1.2.3/", "numeric last label"),
    ("https://[::1]/", "IPv6 literal"),
    ("https://" + "a" * 64 + ".example/", "label over 63 characters"),
    ("https://example.com/" + "a" * 381, "401 characters"),
    ("https://example.com/<script>", "characters outside URLs"),
    ('https://example.com/"quoted"', "characters outside URLs"),
    ("https://example.com/a\\b", "backslash"),
]
