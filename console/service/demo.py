"""The demo tenant `serve --demo-data` seeds: enough real-looking data for every screen.

Ids are fixed (uuid5 of each object's name) and times are relative to the project clock, so
with TENANT_CONSOLE_FROZEN_NOW set the data, and every screenshot of it, is the same each run.
Every payload goes through the same request models as the API, so the demo data is valid data.
"""

from __future__ import annotations

import hashlib
import sqlite3
from datetime import datetime, timedelta
from typing import Any

from console.clock import frozen_now, now
from console.models import ApplicationCreate, ProxyCreate, ReactorCreate, ReactorFormulaCreate
from console.models.demo import (
    DEMO_LISTEN_URL,
    DEMO_STAGING_NAME,
    DEMO_TENANT_NAME,
    STAGING_PREFIX,
    demo_id,
)
from console.models.people import InvitationCreate, SecurityContactUpdate
from console.models.webhooks import WebhookCreate
from console.service.provisioning import Provisioning, Version
from console.service.store import (
    Store,
    TenantInfo,
    applications,
    formulas,
    invitations,
    members,
    proxies,
    reactors,
    security_contacts,
    tenants,
    users,
)
from console.service.store.store import bootstrap_tenant
from console.service.timestamps import stamp

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)
MINUTE = timedelta(minutes=1)


_demo_id = demo_id
__all__ = ["DEMO_STAGING_NAME", "DEMO_TENANT_NAME", "demo_id", "seed_demo_tenant"]


# -- applications --------------------------------------------------------------------------

_APPLICATIONS: list[dict[str, Any]] = [
    {
        "name": "Ops dashboard (read-only)",
        "type": "management",
        "permissions": [
            "tenant:read",
            "application:read",
            "proxy:read",
            "reactor:read",
            "report:read",
            "log:read",
        ],
        "age": 110 * DAY,
    },
    {
        "name": "CI deploy pipeline",
        "type": "management",
        "permissions": [
            "application:read",
            "application:create",
            "application:update",
            "proxy:read",
            "proxy:create",
            "proxy:update",
            "reactor:read",
            "reactor:create",
            "reactor:update",
        ],
        "age": 104 * DAY,
        "modified": 12 * DAY,
    },
    {
        "name": "Checkout backend",
        "type": "private",
        "permissions": ["token:create", "token:read", "token:use"],
        "age": 98 * DAY,
    },
    {
        "name": "Web checkout (acme.shop)",
        "type": "public",
        "permissions": ["token:create"],
        "age": 97 * DAY,
    },
    {
        "name": "Payouts service",
        "type": "private",
        "permissions": ["token:create", "token:read", "token:update", "token:use"],
        "rules": [
            {
                "description": "Reveal bank accounts for payout files",
                "priority": 1,
                "container": "/bank/",
                "transform": "reveal",
                "permissions": ["token:read", "token:use"],
            },
            {
                "description": "Everything else stays masked",
                "priority": 2,
                "container": "/",
                "transform": "mask",
                "permissions": ["token:read"],
            },
        ],
        "age": 80 * DAY,
        "modified": 20 * DAY,
    },
    {
        "name": "iOS app",
        "type": "public",
        "permissions": ["token:create", "token:update"],
        "rules": [
            {
                "description": "Collect cards into the PCI container",
                "priority": 1,
                "container": "/pci/",
                "transform": "redact",
                "permissions": ["token:create", "token:update"],
            }
        ],
        "age": 75 * DAY,
    },
    {
        "name": "Android app",
        "type": "public",
        "permissions": ["token:create", "token:update"],
        "age": 74 * DAY,
    },
    {
        "name": "Fraud scoring worker",
        "type": "private",
        "permissions": [],
        "rules": [
            {
                "description": "Card data, masked to the last four digits",
                "priority": 1,
                "container": "/pci/",
                "transform": "mask",
                "permissions": ["token:read", "token:search"],
            },
            {
                "description": "Personal data stays redacted",
                "priority": 2,
                "container": "/pii/",
                "transform": "redact",
                "permissions": ["token:read"],
            },
        ],
        "age": 61 * DAY,
    },
    {
        "name": "Support tooling",
        "type": "private",
        "permissions": ["token:read"],
        "rules": [
            {
                "description": "Agents see masked emails and phone numbers",
                "priority": 1,
                "container": "/pii/contact/",
                "transform": "mask",
                "permissions": ["token:read", "token:search"],
            }
        ],
        "age": 45 * DAY,
        "modified": 3 * DAY,
    },
    {
        "name": "Billing reports",
        "type": "management",
        "permissions": ["report:read", "tenant:read"],
        "age": 30 * DAY,
    },
    {
        "name": "Data warehouse export (nightly)",
        "type": "private",
        "permissions": ["token:search", "token:read"],
        "age": 21 * DAY,
    },
    {
        "name": "Temporary auditor access",
        "type": "management",
        "permissions": ["tenant:read", "application:read", "log:read", "report:read"],
        "age": 5 * DAY,
        "expires_in": 1 * DAY + 20 * HOUR,
    },
]


# -- proxies --------------------------------------------------------------------------------

_STRIPE_REQUEST = """\
module.exports = async function (req) {
  const { bt, args, configuration } = req;
  const { body, headers } = args;
  // Swap the card token for the real card number just before it leaves for Stripe.
  const card = await bt.tokens.retrieve(body.card_token);
  return {
    headers: {
      ...headers,
      'Stripe-Version': configuration.STRIPE_API_VERSION,
      'Idempotency-Key': headers['x-request-id'],
    },
    body: {
      amount: body.amount,
      currency: body.currency || 'usd',
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': card.data.number,
      'payment_method_data[card][exp_month]': card.data.expiration_month,
      'payment_method_data[card][exp_year]': card.data.expiration_year,
    },
  };
};
"""

_STRIPE_RESPONSE = """\
module.exports = async function (req) {
  const { body, headers } = req.args;
  // Never hand the raw payment method back to the browser.
  const { payment_method_details, ...rest } = body;
  return {
    headers,
    body: { ...rest, card_last4: payment_method_details?.card?.last4 ?? null },
  };
};
"""

_ADYEN_REQUEST = """\
module.exports = async function (req) {
  const { bt, args, configuration } = req;
  const { body, headers } = args;
  const account = await bt.tokens.retrieve(body.bank_token);
  return {
    headers: { ...headers, 'X-API-Key': configuration.ADYEN_API_KEY },
    body: {
      merchantAccount: configuration.MERCHANT_ACCOUNT,
      amount: { value: body.amount, currency: body.currency },
      reference: body.payout_id,
      bankAccount: {
        iban: account.data.iban,
        ownerName: account.data.owner_name,
        countryCode: account.data.iban.slice(0, 2),
      },
    },
  };
};
"""

_WEBHOOK_RESPONSE = """\
module.exports = async function (req) {
  const { body, headers } = req.args;
  return {
    headers: { ...headers, 'x-relayed-by': 'acme-proxy' },
    body: { received: true, id: body.id ?? null },
  };
};
"""

_ISSUING_REQUEST = """\
module.exports = async function (req) {
  const { body, headers } = req.args;
  const { configuration } = req;
  return {
    headers: { ...headers, Authorization: `Basic ${configuration.MARQETA_CREDENTIALS}` },
    body: {
      user_token: body.customer_id,
      card_product_token: configuration.CARD_PRODUCT,
      fulfillment: { shipping: { method: 'USPS_REGULAR' } },
    },
  };
};
"""

_ISSUING_RESPONSE = """\
module.exports = async function (req) {
  const { bt, args } = req;
  const { body, headers } = args;
  // Tokenize the new card before the response reaches the app.
  const token = await bt.tokens.create({
    type: 'card',
    data: { number: body.pan, expiration_month: body.expiration_month,
            expiration_year: body.expiration_year },
    containers: ['/pci/'],
  });
  return { headers, body: { card_token: token.id, last_four: body.last_four } };
};
"""

_LOYALTY_REQUEST = """\
module.exports = async function (req) {
  const { args, configuration } = req;
  const { body, headers } = args;
  // The loyalty partner takes points in whole units and the member number without spaces.
  return {
    headers: { ...headers, 'content-type': 'application/json' },
    body: {
      program: configuration.PROGRAM_ID,
      member: String(body.member_number).replace(/\\s+/g, ''),
      points: Math.round(body.amount / 100) * Number(configuration.POINTS_PER_UNIT || 1),
      reference: body.order_id,
    },
  };
};
"""

_LOYALTY_RESPONSE = """\
module.exports = async function (req) {
  const { body, headers } = req.args;
  // Only what the checkout shows goes back; the partner's ledger ids stay behind.
  return {
    headers,
    body: { member: body.member, points_awarded: body.points_awarded, balance: body.balance },
  };
};
"""

_PROXIES: list[dict[str, Any]] = [
    {
        "name": "Stripe charges",
        "destination_url": "https://api.stripe.com/v1/payment_intents",
        "request_transform": {"code": _STRIPE_REQUEST},
        "response_transform": {"code": _STRIPE_RESPONSE},
        "application": "Checkout backend",
        "configuration": {"STRIPE_API_VERSION": "2024-06-20"},
        "require_auth": True,
        "age": 96 * DAY,
        "modified": 9 * DAY,
    },
    {
        "name": "Adyen payouts",
        "destination_url": "https://checkout-test.adyen.com/v71/payouts",
        "request_transform": {"code": _ADYEN_REQUEST},
        "application": "Payouts service",
        "configuration": {
            "MERCHANT_ACCOUNT": "AcmePaymentsECOM",
            "ADYEN_API_KEY": "AQE...redacted",
        },
        "require_auth": True,
        "age": 79 * DAY,
    },
    {
        "name": "Inbound webhook relay",
        "destination_url": "https://hooks.acme-payments.example/inbound",
        "response_transform": {"code": _WEBHOOK_RESPONSE},
        "require_auth": False,
        "age": 66 * DAY,
    },
    {
        "name": "Card issuing (sandbox)",
        "destination_url": "https://sandbox-api.marqeta.com/v3/cards",
        "request_transform": {"code": _ISSUING_REQUEST},
        "response_transform": {"code": _ISSUING_RESPONSE},
        "application": "Web checkout (acme.shop)",
        "configuration": {"CARD_PRODUCT": "acme-virtual-debit", "MARQETA_CREDENTIALS": "…"},
        "require_auth": True,
        "age": 40 * DAY,
        "modified": 2 * DAY,
    },
    {
        "name": "Address verification",
        "destination_url": "https://us-street.api.smarty.example/street-address",
        "configuration": {"CANDIDATES": "3", "MATCH": "enhanced"},
        "require_auth": True,
        "age": 14 * DAY,
    },
    {
        # Today's proxies: a pipeline of steps on each side (issue 35).
        "name": "Loyalty points accrual",
        "destination_url": "https://api.loyalty-partner.example/v2/accruals",
        "request_transforms": [{"type": "code", "code": _LOYALTY_REQUEST}],
        "response_transforms": [
            {"type": "code", "code": _LOYALTY_RESPONSE},
            {
                "type": "append_header",
                "options": {"location": "X-Loyalty-Program", "value": "acme-rewards"},
            },
            {
                # The partner echoes the member number in full: all but the last four masked.
                "type": "mask",
                "matcher": "regex",
                "expression": '"member"\\s*:\\s*"[A-Z]{2}([0-9]+)[0-9]{4}"',
                "replacement": "*",
            },
        ],
        "configuration": {
            "PROGRAM_ID": "acme-rewards",
            "POINTS_PER_UNIT": "2",
            "LOYALTY_API_KEY": "lp_live_…",
        },
        "require_auth": True,
        "timeout": 10,
        "age": 6 * DAY,
    },
]


# -- private reactor formulas ------------------------------------------------------------

_PAYOUT_RECIPIENT = """\
module.exports = async function (req) {
  const { args, configuration } = req;
  const { recipient } = args;
  const iban = recipient.iban.replace(/\\s+/g, '').toUpperCase();
  if (!iban.startsWith(configuration.PAYOUT_REGION)) {
    throw new Error(`Payouts are limited to ${configuration.PAYOUT_REGION} accounts`);
  }
  return {
    raw: { country: iban.slice(0, 2), has_email: Boolean(recipient.email) },
    tokenize: {
      bank: { type: 'bank', data: { iban, owner_name: recipient.name }, containers: ['/bank/'] },
      email: recipient.email
        ? { type: 'token', data: recipient.email, containers: ['/pii/contact/'] }
        : undefined,
    },
  };
};
"""

_CRM_HINTS = """\
module.exports = async function (req) {
  const { args, configuration } = req;
  const masked = (value, keep = 2) =>
    value ? value.slice(0, keep) + '*'.repeat(Math.max(value.length - keep, 0)) : null;
  // The CRM gets hints it can show an agent, never the values.
  return {
    raw: {
      crm: configuration.CRM_URL,
      email_hint: masked(args.customer.email),
      phone_hint: masked(args.customer.phone, 3),
    },
    tokenize: {
      email: { type: 'token', data: args.customer.email, containers: ['/pii/contact/'] },
    },
  };
};
"""

_VELOCITY = """\
module.exports = async function (req) {
  const { args, configuration } = req;
  const attempts = (args.history || []).filter(
    (at) => Date.now() - Date.parse(at) < configuration.WINDOW_MINUTES * 60_000
  ).length;
  const blocked = attempts >= configuration.MAX_ATTEMPTS;
  return {
    raw: {
      card_token: args.card_token,
      attempts,
      decision: blocked ? 'decline' : args.amount > 100_000 ? 'review' : 'approve',
    },
  };
};
"""

_PHONE = """\
module.exports = async function (req) {
  const { args, configuration } = req;
  let digits = String(args.phone).replace(/[^\\d+]/g, '');
  if (!digits.startsWith('+')) {
    const prefixes = { US: '+1', GB: '+44', DE: '+49', FR: '+33' };
    digits = (prefixes[configuration.DEFAULT_COUNTRY] || '+1') + digits.replace(/^0+/, '');
  }
  return {
    raw: { e164: digits.length >= 8 },
    tokenize: { type: 'token', data: digits, containers: ['/pii/contact/'] },
  };
};
"""

_FORMULAS: list[dict[str, Any]] = [
    {
        "name": "Tokenize payout recipient",
        "description": "Checks a recipient's IBAN against the payout region and tokenizes "
        "the account and the email.",
        "code": _PAYOUT_RECIPIENT,
        "configuration": [
            {"name": "PAYOUT_REGION", "description": "ISO country prefix", "type": "string"}
        ],
        "request_parameters": [
            {"name": "recipient.name", "type": "string", "optional": False},
            {"name": "recipient.iban", "type": "string", "optional": False},
            {"name": "recipient.email", "type": "string", "optional": True},
        ],
        "age": 70 * DAY,
        "modified": 6 * DAY,
    },
    {
        "name": "Mask contact hints for the CRM",
        "description": "Gives the CRM masked contact hints, never the values.",
        "code": _CRM_HINTS,
        "configuration": [
            {"name": "CRM_URL", "type": "string"},
            {"name": "CRM_API_KEY", "description": "Bearer token of the CRM", "type": "string"},
        ],
        "request_parameters": [
            {"name": "customer.email", "type": "string", "optional": False},
            {"name": "customer.phone", "type": "string", "optional": True},
        ],
        "age": 52 * DAY,
    },
    {
        "name": "Card velocity check",
        "description": "Declines a card that was tried too often in a short window.",
        "code": _VELOCITY,
        "configuration": [
            {"name": "MAX_ATTEMPTS", "type": "number"},
            {"name": "WINDOW_MINUTES", "type": "number"},
        ],
        "request_parameters": [
            {"name": "card_token", "type": "string", "optional": False},
            {"name": "amount", "description": "In minor units", "type": "number"},
            {
                "name": "history",
                "description": "ISO times of earlier attempts",
                "type": "string",
                "optional": True,
            },
        ],
        "age": 33 * DAY,
    },
    {
        "name": "Normalize phone numbers",
        "description": "Turns local phone numbers into E.164 and tokenizes them.",
        "code": _PHONE,
        "configuration": [
            {"name": "DEFAULT_COUNTRY", "description": "US, GB, DE or FR", "type": "string"}
        ],
        "request_parameters": [{"name": "phone", "type": "string", "optional": False}],
        "age": 8 * DAY,
    },
]


# -- reactors ------------------------------------------------------------------------------

_BIN_LOOKUP = """\
module.exports = async function (req) {
  const { args, configuration } = req;
  // The first six to eight digits name the issuer; the card number itself is never returned.
  const digits = String(args.card_number || '').replace(/\\D/g, '');
  if (digits.length < 12) {
    throw new Error('card_number must hold at least 12 digits');
  }
  const ranges = [
    { prefix: '4', brand: 'visa' },
    { prefix: '51', brand: 'mastercard' }, { prefix: '52', brand: 'mastercard' },
    { prefix: '53', brand: 'mastercard' }, { prefix: '54', brand: 'mastercard' },
    { prefix: '55', brand: 'mastercard' }, { prefix: '2221', brand: 'mastercard' },
    { prefix: '34', brand: 'amex' }, { prefix: '37', brand: 'amex' },
    { prefix: '6011', brand: 'discover' }, { prefix: '65', brand: 'discover' },
  ];
  const match = ranges
    .filter((range) => digits.startsWith(range.prefix))
    .sort((a, b) => b.prefix.length - a.prefix.length)[0];
  const issuers = JSON.parse(configuration.ISSUER_TABLE || '{}');
  const bin = digits.slice(0, 8);
  const issuer = issuers[bin] || issuers[digits.slice(0, 6)] || null;
  const blocked = (configuration.BLOCKED_COUNTRIES || '')
    .split(',').map((code) => code.trim()).filter(Boolean);
  const country = issuer ? issuer.country : null;
  return {
    raw: {
      bin,
      last4: digits.slice(-4),
      brand: match ? match.brand : 'unknown',
      issuer: issuer ? issuer.name : null,
      country,
      funding: issuer ? issuer.funding : null,
      allowed: country === null || !blocked.includes(country),
    },
  };
};
"""

_FRAUD_RELAY = """\
module.exports = async function (req) {
  const { args, configuration } = req;
  const { order, card } = args;
  // What the fraud partner receives: the order, the card's BIN and last four, never the number.
  const headers = {
    'Content-Type': 'application/json',
    Authorization: `Bearer ${configuration.PARTNER_API_KEY}`,
    'X-Merchant-Id': configuration.MERCHANT_ID,
    'X-Request-Id': order.id,
  };
  const body = {
    merchant: configuration.MERCHANT_ID,
    order_id: order.id,
    amount: { value: order.amount, currency: (order.currency || 'usd').toUpperCase() },
    card: { bin: card.bin, last4: card.last4 },
    customer: { email_domain: (order.email || '').split('@')[1] || null },
    score_threshold: Number(configuration.SCORE_THRESHOLD || 70),
  };
  return { body, headers };
};
"""

_REACTORS: list[dict[str, Any]] = [
    {
        # The runtime reactors always had: the image and nothing else.
        "name": "Card BIN lookup",
        "code": _BIN_LOOKUP,
        "runtime": {"image": "node-bt"},
        "application": "Fraud scoring worker",
        "configuration": {
            "ISSUER_TABLE": '{"42424242": {"name": "Stripe Test Bank", "country": "US",'
            ' "funding": "credit"}, "545454": {"name": "Acme Card Services", "country": "GB",'
            ' "funding": "debit"}}',
            "BLOCKED_COUNTRIES": "KP,IR,SY",
        },
        "age": 28 * DAY,
        "modified": 4 * DAY,
    },
    {
        # Node.js 22 with its own runtime options; no dependencies (the local service cannot
        # install npm packages: a reactor with some would fail to provision here).
        "name": "Fraud partner relay",
        "code": _FRAUD_RELAY,
        "runtime": {
            "image": "node22",
            "timeout": 15,
            "resources": "large",
            "permissions": ["token:read"],
        },
        "configuration": {
            "PARTNER_API_KEY": "fp_live_…",
            "MERCHANT_ID": "acme-eu-01",
            "SCORE_THRESHOLD": "70",
        },
        "age": 12 * DAY,
    },
]


# -- usage ----------------------------------------------------------------------------------

DEMO_INCLUDED_MONTHLY_ACTIVE_TOKENS = 250_000
DEMO_MONTHLY_ACTIVE_TOKENS = 226_480  # about 91% of the plan: the dashboard's warning zone
_METRICS: dict[str, tuple[int, timedelta]] = {
    "card": (184_213, 2 * HOUR),
    "token": (97_354, 15 * timedelta(minutes=1)),
    "bank": (22_907, 1 * DAY + 3 * HOUR),
    "email": (61_442, 40 * timedelta(minutes=1)),
    "social_security_number": (8_120, 3 * DAY),
    "card_number": (1_206, 26 * DAY),
}


# -- people ---------------------------------------------------------------------------------

_MEMBERS: list[dict[str, Any]] = [
    {
        "key": "owner",
        "email": "olivia.reyes@acme.example",
        "first_name": "Olivia",
        "last_name": "Reyes",
        "role": "OWNER",
        "mfa": True,
        "age": 120 * DAY,
    },
    {
        "key": "admin",
        "email": "sam.patel@acme.example",
        "first_name": "Sam",
        "last_name": "Patel",
        "role": "ADMIN",
        "mfa": True,
        "age": 96 * DAY,
    },
    {
        "key": "read-only",
        "email": "jordan.kim@acme.example",
        "first_name": "Jordan",
        "last_name": "Kim",
        "role": "READ_ONLY",
        "mfa": False,  # what the access review flags
        "age": 41 * DAY,
    },
]
"""The demo tenant's members: its owner, an admin, and a read-only member without MFA."""

_INVITATIONS: list[dict[str, Any]] = [
    {"email": "priya.shah@acme.example", "role": "ADMIN", "sent": 1 * DAY + 5 * HOUR},
    {"email": "alex.moreau@acme.example", "role": "READ_ONLY", "sent": 9 * DAY},
]
"""Its invitations: one pending (sent yesterday), one expired (72 hours after it was sent)."""

DEMO_SECURITY_CONTACT = "security@acme.example"
STAGING_EMAIL_TAG = "+staging"
"""Staging's people sign in with accounts of their own (users are one an email): the same
addresses, plus-tagged."""


def _demo_email(email: str, staging: bool) -> str:
    if not staging:
        return email
    local, _, domain = email.partition("@")
    return f"{local}{STAGING_EMAIL_TAG}@{domain}"


def _seed_people(
    conn: sqlite3.Connection,
    tenant_id: str,
    moment: datetime,
    demo_id: Any,
    staging: bool,
) -> str:
    """The tenant's members, invitations and security contact; returns its owner's user id
    (`demo_id("user", "owner")`, the creator of the bootstrap application the demo's console
    uses: the console's own user is the owner)."""
    owner_id = ""
    for spec in _MEMBERS:
        email = InvitationCreate.parse({"email": _demo_email(spec["email"], staging)}).email
        user = users.ensure(
            conn,
            email,
            first_name=spec["first_name"],
            last_name=spec["last_name"],
            mfa_enrolled=spec["mfa"],
            user_id=demo_id("user", spec["key"]),
        )
        if spec["role"] == members.OWNER:
            owner_id = user["id"]
        members.insert(
            conn,
            tenant_id,
            user["id"],
            spec["role"],
            by=owner_id or None,
            at=stamp(moment - spec["age"]),
            member_id=demo_id("member", spec["key"]),
        )
    for spec in _INVITATIONS:
        payload = InvitationCreate.parse(
            {"email": _demo_email(spec["email"], staging), "role": spec["role"]}
        )
        sent = moment - spec["sent"]
        invitations.insert(
            conn,
            tenant_id,
            payload.email,
            payload.role,
            expires_at=invitations.expiry_from(sent),
            by=owner_id,
            at=stamp(sent),
            invitation_id=demo_id("invitation", spec["email"]),
        )
    contact = SecurityContactUpdate.parse({"email": _demo_email(DEMO_SECURITY_CONTACT, staging)})
    security_contacts.set_email(conn, tenant_id, contact.email)
    return owner_id


# -- webhooks -------------------------------------------------------------------------------

DEMO_LISTEN_EVENTS: list[str] = [
    "application.created",
    "application.updated",
    "application.deleted",
    "application.key.created",
    "application.key.deleted",
    "proxy.created",
    "proxy.updated",
    "proxy.deleted",
    "reactor.created",
    "reactor.updated",
    "reactor.deleted",
    "tenant.updated",
    "tenant.member.deleted",
    "tenant.invitation.created",
    "tenant.invitation.resent",
    "tenant.invitation.deleted",
]
"""What the "Local listen" webhook subscribes to: the events of the changes the console makes
on the demo (editing an application, a proxy, a reactor, the tenant, its people, its keys)."""

_LEDGER_URL = "https://ledger.acme-payments.example/hooks/tenant-events"
DEMO_DISABLED_REASON = (
    f"Disabled after 10 failed deliveries in a row; the last: HTTP 503 ({_LEDGER_URL})"
)
"""As the service's deliverer words it (console.service.delivery.deliverer)."""

_WEBHOOKS: list[dict[str, Any]] = [
    {
        # Nothing listens there until someone runs `tenant-console webhooks listen --no-register
        # --port 8765` (docs/webhooks.md); the demo's service keeps it enabled meanwhile.
        "name": "Local listen",
        "url": DEMO_LISTEN_URL,
        "events": DEMO_LISTEN_EVENTS,
        "age": 2 * DAY,
    },
    {
        # The state a person meets on a real tenant: a receiver that went down, the webhook
        # disabled by the service, and why.
        "name": "Ledger sync",
        "url": _LEDGER_URL,
        "notify_email": "payments-oncall@acme.example",
        "events": ["application.key.created", "application.key.deleted", "proxy.updated"],
        "disabled_reason": DEMO_DISABLED_REASON,
        "failures": 10,
        "age": 27 * DAY,
        "modified": 3 * DAY + 4 * HOUR,
        "production_only": True,
    },
]
"""The demo tenants' webhooks: one delivering to a local `listen`, and (production's only) one
the service disabled, with its reason."""


def _seed_webhooks(
    conn: sqlite3.Connection,
    tenant_id: str,
    moment: datetime,
    demo_id: Any,
    staging: bool,
    by: str,
) -> None:
    """The demo's webhooks, checked as `POST /webhooks` checks them. Written here, not
    through the service's handler: a create would emit events of its own and take now as its
    time (as the other demo objects, they are backdated)."""
    import json

    for spec in _WEBHOOKS:
        if staging and spec.get("production_only"):
            continue
        body = {k: spec[k] for k in ("name", "url", "notify_email", "events") if k in spec}
        webhook = WebhookCreate.parse(body)
        created = stamp(moment - spec["age"])
        modified = stamp(moment - spec["modified"]) if "modified" in spec else created
        conn.execute(
            "INSERT INTO webhooks (id, tenant_id, name, url, notify_email, events, status,"
            " disabled_reason, failures, created_by, created_at, modified_by, modified_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                demo_id("webhook", spec["name"]),
                tenant_id,
                webhook.name,
                webhook.url,
                webhook.notify_email,
                json.dumps(webhook.events),
                "disabled" if spec.get("disabled_reason") else "enabled",
                spec.get("disabled_reason"),
                spec.get("failures", 0),
                by,
                created,
                by,
                modified,
            ),
        )


# -- audit log history ------------------------------------------------------------------------

_LOG_HISTORY: list[tuple[timedelta, str, str, str, str, str]] = [
    # (how long ago, who, entity type, entity (kind, name), operation, message); who is
    # "console" (the bootstrap application, the console's own key), "ci" (the CI deploy
    # pipeline) or a user ("owner", "admin"). Only objects that come and go, and keys of
    # applications, so no object's `modified_at` disagrees with its log.
    (19 * HOUR + 40 * MINUTE, "ci", "proxy", "Release smoke test", "create", "Proxy created"),
    (19 * HOUR + 38 * MINUTE, "ci", "proxy", "Release smoke test", "delete", "Proxy deleted"),
    (17 * HOUR + 5 * MINUTE, "ci", "reactor", "Release smoke test", "create", "Reactor created"),
    (17 * HOUR + 2 * MINUTE, "ci", "reactor", "Release smoke test", "delete", "Reactor deleted"),
    (14 * HOUR, "owner", "application", "CI deploy pipeline", "update", "key created"),
    (
        13 * HOUR + 52 * MINUTE,
        "owner",
        "application",
        "CI deploy pipeline",
        "update",
        "key revoked",
    ),
    (11 * HOUR, "admin", "application", "Contractor sandbox", "create", "Application created"),
    (
        8 * HOUR + 30 * MINUTE,
        "ci",
        "reactor_formula",
        "Scratch formula",
        "create",
        "Reactor formula created",
    ),
    (
        8 * HOUR + 10 * MINUTE,
        "ci",
        "reactor_formula",
        "Scratch formula",
        "delete",
        "Reactor formula deleted",
    ),
    (5 * HOUR, "admin", "application", "Contractor sandbox", "delete", "Application deleted"),
    (2 * HOUR, "console", "application", "Support tooling", "update", "key created"),
    (1 * HOUR + 55 * MINUTE, "console", "application", "Support tooling", "update", "key revoked"),
    (40 * MINUTE, "admin", "proxy", "Partner sandbox relay", "create", "Proxy created"),
    (35 * MINUTE, "admin", "proxy", "Partner sandbox relay", "delete", "Proxy deleted"),
]
"""The demo's audit log over the past 20 hours (within the default 24-hour retention): a
second application (the CI pipeline), people, and the console's own key act. "Ops dashboard
(read-only)", created 110 days ago, never acts: the access review flags it inactive."""

_LOG_ENTITY_KINDS = {
    "proxy": "proxy",
    "reactor": "reactor",
    "reactor_formula": "formula",
    "application": "application",
}
"""A log's entity type -> the kind demo ids are made for."""


def _seed_log_history(
    conn: sqlite3.Connection, info: TenantInfo, moment: datetime, demo_id: Any
) -> None:
    """The demo tenant's recent audit log (_LOG_HISTORY), with fixed ids and times relative
    to the clock. Key ids in messages are made up: those keys were revoked."""
    from console.service.changes import ACTOR_APPLICATION, ACTOR_USER, Actor, Change
    from console.service.store import logs

    actors = {
        "console": Actor(info.application_id, ACTOR_APPLICATION),
        "ci": Actor(demo_id("application", "CI deploy pipeline"), ACTOR_APPLICATION),
        "owner": Actor(demo_id("user", "owner"), ACTOR_USER),
        "admin": Actor(demo_id("user", "admin"), ACTOR_USER),
    }
    changes = []
    for ago, who, entity_type, name, operation, message in _LOG_HISTORY:
        entity_id = demo_id(_LOG_ENTITY_KINDS[entity_type], name)
        if message.startswith("key "):
            key_id = demo_id("key", f"{name} rotation {ago}")
            message = f"Application key {key_id} {message.removeprefix('key ')}"
        at = stamp(moment - ago)
        changes.append(
            Change(info.tenant_id, entity_type, entity_id, operation, message, actors[who], at)
        )
    ids = [demo_id("log", str(index)) for index in range(len(changes))]
    logs.insert_many(conn, changes, ids=ids)


# -- seeding --------------------------------------------------------------------------------


def _touch(conn: sqlite3.Connection, table: str, row_id: str, by: str, at: str) -> None:
    conn.execute(
        f"UPDATE {table} SET modified_by = ?, modified_at = ? WHERE id = ?", (by, at, row_id)
    )


def _proxy_key(name: str) -> str | None:
    """Fixed proxy keys when the clock is frozen (screenshots show them), random otherwise."""
    if frozen_now() is None:
        return None
    return hashlib.sha256(f"demo-proxy/{name}".encode()).hexdigest()[:32]


def _fix_key_ids(conn: sqlite3.Connection, tenant_id: str) -> None:
    """Each demo application's first key gets an id derived from the application's, and its
    application's creator, so screenshots (which show key ids) come out the same every time."""
    rows = conn.execute(
        "SELECT application_keys.id, application_keys.application_id FROM application_keys"
        " JOIN applications ON applications.id = application_keys.application_id"
        " WHERE applications.tenant_id = ?",
        (tenant_id,),
    ).fetchall()
    for key_id, app_id in rows:
        conn.execute(
            "UPDATE application_keys SET id = ?, created_by = (SELECT created_by FROM"
            " applications WHERE applications.id = application_keys.application_id) WHERE id = ?",
            (demo_id("key", app_id), key_id),
        )


# -- the staging tenant ---------------------------------------------------------------------

STAGING_LACKS = {"Temporary auditor access", "Data warehouse export (nightly)", "Billing reports"}
"""What production has and staging does not yet: `c` (copy to profile) and the diff show it."""
STAGING_CHANGE = "Card velocity check"
STAGING_CODE_NOTE = "// staging: a looser limit while the new scoring is tried\n"
"""Staging's copy of this formula carries one more line, so a diff shows a code change."""


def seed_demo_tenant(store: Store, *, staging_name: str | None = None) -> TenantInfo:
    """Creates the demo tenant with its applications, proxies, reactors, formulas and usage; with
    `staging_name`, its staging twin under that name (a little behind production, one
    formula changed, its own ids), for the demo's second profile."""
    moment = now()
    with store.write() as conn:
        return _seed(conn, moment, staging_name)


def _without_staging_gaps(specs: list[dict[str, Any]], staging: bool) -> list[dict[str, Any]]:
    if not staging:
        return specs
    kept = [spec for spec in specs if spec["name"] not in STAGING_LACKS]
    return [
        {**spec, "code": STAGING_CODE_NOTE + spec["code"]}
        if spec["name"] == STAGING_CHANGE
        else spec
        for spec in kept
    ]


def _seed(
    conn: sqlite3.Connection, moment: datetime, staging_name: str | None = None
) -> TenantInfo:
    born = moment - 120 * DAY
    staging = staging_name is not None
    tenant_name = staging_name or DEMO_TENANT_NAME
    prefix = STAGING_PREFIX if staging else ""

    def demo_id(kind: str, name: str) -> str:  # staging's objects have ids of their own
        return _demo_id(kind, prefix + name)

    info = bootstrap_tenant(
        conn,
        tenant_name,
        at=stamp(born),
        tenant_id=demo_id("tenant", tenant_name),
        application_id=demo_id("application", "Bootstrap management"),
    )
    owner = _seed_people(conn, info.tenant_id, moment, demo_id, staging)
    conn.execute(
        "UPDATE tenants SET owner_id = ?, created_by = ?, modified_by = ?,"
        " deduplicate_tokens = 'false' WHERE id = ?",
        (owner, owner, info.application_id, info.tenant_id),
    )
    conn.execute(
        "UPDATE applications SET created_by = ?, modified_by = ? WHERE id = ?",
        (owner, owner, info.application_id),
    )
    _touch(conn, "tenants", info.tenant_id, info.application_id, stamp(moment - 60 * DAY))
    admin = info.application_id
    ci = demo_id("application", "CI deploy pipeline")

    for spec in _without_staging_gaps(_APPLICATIONS, staging):
        expires = moment + spec["expires_in"] if "expires_in" in spec else None
        payload = ApplicationCreate.parse(
            {
                "name": spec["name"],
                "type": spec["type"],
                "permissions": spec["permissions"],
                "rules": spec.get("rules", []),
                "expires_at": expires.isoformat() if expires else None,
            },
            now=moment,
        )
        row, _ = applications.insert(
            conn,
            tenant_id=info.tenant_id,
            name=payload.name,
            type=payload.type,
            permissions=payload.permissions,
            rules=[r.model_dump(mode="json", exclude_none=True) for r in payload.rules],
            expires_at=stamp(payload.expires_at) if payload.expires_at else None,
            by=admin,
            at=stamp(moment - spec["age"]),
            app_id=demo_id("application", spec["name"]),
        )
        if "modified" in spec:
            _touch(conn, "applications", row["id"], ci, stamp(moment - spec["modified"]))

    for spec in _without_staging_gaps(_PROXIES, staging):
        body = {k: v for k, v in spec.items() if k not in ("age", "modified", "application")}
        if "application" in spec:
            body["application"] = {"id": demo_id("application", spec["application"])}
        fields = ProxyCreate.parse(body).model_dump(mode="json")
        row = proxies.insert(
            conn,
            info.tenant_id,
            fields,
            by=admin,
            at=stamp(moment - spec["age"]),
            proxy_id=demo_id("proxy", spec["name"]),
            key=_proxy_key(prefix + spec["name"]),
        )
        if "modified" in spec:
            _touch(conn, "proxies", row["id"], ci, stamp(moment - spec["modified"]))

    for spec in _without_staging_gaps(_REACTORS, staging):
        body = {k: v for k, v in spec.items() if k not in ("age", "modified", "application")}
        if "application" in spec:
            body["application"] = {"id": demo_id("application", spec["application"])}
        reactor = ReactorCreate.parse(body)
        runtime = reactor.runtime.model_dump(mode="json") if reactor.runtime else None
        version = Version(reactor.code, dict(reactor.configuration), runtime)
        row = reactors.insert(  # provisioned long ago: active, as the demo shows them
            conn,
            info.tenant_id,
            name=reactor.name,
            application_id=str(reactor.application.id) if reactor.application else None,
            provisioning=Provisioning("active", version),
            by=admin,
            at=stamp(moment - spec["age"]),
            reactor_id=demo_id("reactor", spec["name"]),
        )
        if "modified" in spec:
            _touch(conn, "reactors", row["id"], ci, stamp(moment - spec["modified"]))

    for spec in _without_staging_gaps(_FORMULAS, staging):
        body = {k: v for k, v in spec.items() if k not in ("age", "modified")}
        fields = ReactorFormulaCreate.parse({**body, "type": "private"}).model_dump(mode="json")
        row = formulas.insert(
            conn,
            info.tenant_id,
            fields,
            by=admin,
            at=stamp(moment - spec["age"]),
            formula_id=demo_id("formula", spec["name"]),
        )
        if "modified" in spec:
            _touch(conn, "reactor_formulas", row["id"], ci, stamp(moment - spec["modified"]))

    _seed_webhooks(conn, info.tenant_id, moment, demo_id, staging, admin)
    _fix_key_ids(conn, info.tenant_id)
    share = 10 if staging else 1  # staging sees a tenth of production's traffic
    tenants.set_usage(
        conn,
        info.tenant_id,
        DEMO_INCLUDED_MONTHLY_ACTIVE_TOKENS // share,
        DEMO_MONTHLY_ACTIVE_TOKENS // (share * 3 if staging else 1),
        {kind: (count // share, stamp(moment - ago)) for kind, (count, ago) in _METRICS.items()},
    )
    if not staging:  # production's usage grows through the month (issue 28); the curve is
        # production's own figures, so staging, on a plan ten times smaller, keeps its own
        tenants.grow_usage(conn, info.tenant_id)
    _seed_log_history(conn, info, moment, demo_id)
    return info
