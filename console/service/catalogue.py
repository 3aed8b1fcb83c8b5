"""The official reactor formulas the operator ships: visible to every tenant, read-only.

Ids and publication times are fixed, so every data dir (and every snapshot) agrees on them.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

CATALOGUE_NAMESPACE = uuid.UUID("6f1d3c52-8d0e-4f59-9b8e-2a4f0c1e7a10")


@dataclass(frozen=True)
class OfficialFormula:
    slug: str
    status: str
    published_at: str
    fields: dict[str, Any]

    @property
    def id(self) -> str:
        return str(uuid.uuid5(CATALOGUE_NAMESPACE, f"official/{self.slug}"))


_CARD_BIN_LOOKUP = """\
const fetch = require('node-fetch');

module.exports = async function (req) {
  const { args, configuration } = req;
  const bin = String(args.card.number).replace(/\\D/g, '').slice(0, 8);
  if (bin.length < 6) {
    throw new Error('card.number must hold at least 6 digits');
  }
  const response = await fetch(`${configuration.LOOKUP_URL}/${bin}`, {
    headers: { Authorization: `Bearer ${configuration.LOOKUP_TOKEN}` },
  });
  const details = await response.json();
  return {
    raw: { brand: details.scheme, type: details.type, issuer: details.bank?.name },
    tokenize: { type: 'card', data: args.card },
  };
};
"""

_EMAIL_NORMALIZE = """\
module.exports = async function (req) {
  const { args, configuration } = req;
  let email = String(args.email).trim().toLowerCase();
  if (configuration.STRIP_PLUS_TAGS) {
    const [local, domain] = email.split('@');
    email = `${local.split('+')[0]}@${domain}`;
  }
  const valid = /^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/.test(email);
  return {
    raw: { valid, domain: email.split('@')[1] || null },
    tokenize: valid ? { type: 'token', data: email, containers: ['/pii/email/'] } : undefined,
  };
};
"""

_SSN_VALIDATE = """\
module.exports = async function (req) {
  const ssn = String(req.args.ssn).replace(/-/g, '');
  const area = ssn.slice(0, 3);
  const valid =
    /^\\d{9}$/.test(ssn) &&
    area !== '000' && area !== '666' && area[0] !== '9' &&
    ssn.slice(3, 5) !== '00' && ssn.slice(5) !== '0000';
  return {
    raw: { valid, last4: valid ? ssn.slice(5) : null },
    tokenize: valid ? { type: 'social_security_number', data: ssn } : undefined,
  };
};
"""

_IBAN_VERIFY = """\
module.exports = async function (req) {
  const iban = String(req.args.bank.iban).replace(/\\s+/g, '').toUpperCase();
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  const digits = rearranged.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of digits) {
    remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return {
    raw: { valid: remainder === 1, country: iban.slice(0, 2) },
    tokenize: remainder === 1 ? { type: 'bank', data: { iban } } : undefined,
  };
};
"""

OFFICIAL_FORMULAS: tuple[OfficialFormula, ...] = (
    OfficialFormula(
        slug="card-bin-lookup",
        status="verified",
        published_at="2025-03-04T09:00:00.000000+00:00",
        fields={
            "name": "Card BIN Lookup",
            "description": "Looks up brand, type and issuer of a card from its BIN, "
            "and tokenizes the card.",
            "type": "official",
            "icon": None,
            "code": _CARD_BIN_LOOKUP,
            "configuration": [
                {"name": "LOOKUP_URL", "description": "BIN service base URL", "type": "string"},
                {"name": "LOOKUP_TOKEN", "description": "BIN service token", "type": "string"},
            ],
            "request_parameters": [
                {
                    "name": "card.number",
                    "description": "Primary account number",
                    "type": "string",
                    "optional": False,
                },
                {"name": "card.expiration_month", "type": "number", "optional": True},
                {"name": "card.expiration_year", "type": "number", "optional": True},
            ],
        },
    ),
    OfficialFormula(
        slug="email-normalize",
        status="verified",
        published_at="2025-05-19T14:30:00.000000+00:00",
        fields={
            "name": "Email Normalize & Tokenize",
            "description": "Trims and lower-cases an email address, validates it, "
            "and tokenizes it into the /pii/email/ container.",
            "type": "official",
            "icon": None,
            "code": _EMAIL_NORMALIZE,
            "configuration": [
                {
                    "name": "STRIP_PLUS_TAGS",
                    "description": "Drop +tags from the local part",
                    "type": "boolean",
                },
            ],
            "request_parameters": [
                {
                    "name": "email",
                    "description": "The address to normalize",
                    "type": "string",
                    "optional": False,
                },
            ],
        },
    ),
    OfficialFormula(
        slug="ssn-validate",
        status="verified",
        published_at="2025-08-11T08:15:00.000000+00:00",
        fields={
            "name": "SSN Validate & Tokenize",
            "description": "Checks the structure of a US social security number and "
            "tokenizes it when valid.",
            "type": "official",
            "icon": None,
            "code": _SSN_VALIDATE,
            "configuration": [],
            "request_parameters": [
                {
                    "name": "ssn",
                    "description": "Nine digits, dashes allowed",
                    "type": "string",
                    "optional": False,
                },
            ],
        },
    ),
    OfficialFormula(
        slug="iban-verify",
        status="coming_soon",
        published_at="2026-02-02T10:00:00.000000+00:00",
        fields={
            "name": "IBAN Verify",
            "description": "Verifies an IBAN's check digits and tokenizes the account.",
            "type": "official",
            "icon": None,
            "code": _IBAN_VERIFY,
            "configuration": [],
            "request_parameters": [
                {
                    "name": "bank.iban",
                    "description": "International bank account number",
                    "type": "string",
                    "optional": False,
                },
            ],
        },
    ),
)
