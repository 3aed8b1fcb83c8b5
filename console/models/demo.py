"""What the demo's service and the demo's console both know: the demo tenants' names, how
their ids are made, and a sample request for every formula, reactor, transform and pipeline
they hold.

The service seeds the tenants (console.service.demo); the console, which never imports the
service, writes these samples where test-runs look for them (console.tui.start.demo), so that the
first test-run of each passes.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

DEMO_TENANT_NAME = "Acme Payments (demo)"
DEMO_STAGING_NAME = "Acme Payments (staging)"
DEMO_NAMESPACE = uuid.UUID("0b7c1f4e-2d8a-4c61-9f3e-5a6b7c8d9e01")
STAGING_PREFIX = "staging/"
"""Staging's objects have ids of their own: the same names under this prefix."""

DEMO_LISTEN_PORT = 8765
"""Where the demo tenants' "Local listen" webhook delivers: `http://127.0.0.1:8765/`, the
port `tenant-console webhooks listen --no-register --port 8765` receives on (docs/webhooks.md)."""
DEMO_LISTEN_URL = f"http://127.0.0.1:{DEMO_LISTEN_PORT}/"


def demo_id(kind: str, name: str) -> str:
    """The fixed id of a demo object (`kind` "formula", "proxy", ...), stable across runs."""
    return str(uuid.uuid5(DEMO_NAMESPACE, f"{kind}/{name}"))


# The samples: {args, configuration} as the test-run screen edits them. A transform's args are
# the body and headers of the request (or response) it transforms.
FORMULA_SAMPLES: dict[str, dict[str, Any]] = {
    "Tokenize payout recipient": {
        "args": {
            "recipient": {
                "name": "Ada Lovelace",
                "iban": "DE89 3704 0044 0532 0130 00",
                "email": "ada@example.com",
            }
        },
        "configuration": {"PAYOUT_REGION": "DE"},
    },
    "Mask contact hints for the CRM": {
        "args": {"customer": {"email": "grace@example.com", "phone": "+442079460958"}},
        "configuration": {"CRM_URL": "https://crm.example/api", "CRM_API_KEY": "demo-crm-key"},
    },
    "Card velocity check": {
        "args": {"card_token": "d2cbc1b4-5c3a-4a5e-9f7c-0b1e2d3c4a5f", "amount": 4200},
        "configuration": {"MAX_ATTEMPTS": 3, "WINDOW_MINUTES": 10},
    },
    "Normalize phone numbers": {
        "args": {"phone": "020 7946 0958"},
        "configuration": {"DEFAULT_COUNTRY": "GB"},
    },
}

TRANSFORM_SAMPLES: dict[tuple[str, str], dict[str, Any]] = {
    ("Stripe charges", "request_transform"): {
        "args": {
            "body": {"card_token": "8f14e45f-ceea-467f-a0e6-2b3c4d5e6f70", "amount": 4200},
            "headers": {"x-request-id": "req_7Yx2"},
        },
        "configuration": {"STRIPE_API_VERSION": "2024-06-20"},
        "bt": {
            "tokens": {
                "8f14e45f-ceea-467f-a0e6-2b3c4d5e6f70": {
                    "type": "card",
                    "data": {
                        "number": "4242424242424242",
                        "expiration_month": 12,
                        "expiration_year": 2030,
                    },
                }
            }
        },
    },
    ("Stripe charges", "response_transform"): {
        "args": {
            "body": {
                "id": "pi_3Qx",
                "status": "succeeded",
                "amount": 4200,
                "payment_method_details": {"card": {"brand": "visa", "last4": "4242"}},
            },
            "headers": {"content-type": "application/json"},
        },
        "configuration": {"STRIPE_API_VERSION": "2024-06-20"},
    },
    ("Adyen payouts", "request_transform"): {
        "args": {
            "body": {
                "bank_token": "c9f0f895-fb98-4b91-a1c2-3d4e5f607182",
                "amount": 125000,
                "currency": "EUR",
                "payout_id": "po_2291",
            },
            "headers": {"content-type": "application/json"},
        },
        "configuration": {"MERCHANT_ACCOUNT": "AcmePaymentsECOM", "ADYEN_API_KEY": "demo"},
        "bt": {
            "tokens": {
                "c9f0f895-fb98-4b91-a1c2-3d4e5f607182": {
                    "type": "bank",
                    "data": {"iban": "NL91ABNA0417164300", "owner_name": "J. Jansen"},
                }
            }
        },
    },
    ("Inbound webhook relay", "response_transform"): {
        "args": {"body": {"id": "evt_1PqR", "type": "charge.succeeded"}, "headers": {}},
        "configuration": {},
    },
    ("Card issuing (sandbox)", "request_transform"): {
        "args": {"body": {"customer_id": "cus_881"}, "headers": {}},
        "configuration": {"CARD_PRODUCT": "acme-virtual-debit", "MARQETA_CREDENTIALS": "demo"},
    },
    ("Card issuing (sandbox)", "response_transform"): {
        "args": {
            "body": {
                "pan": "4111111111111111",
                "expiration_month": 12,
                "expiration_year": 2030,
                "last_four": "1111",
            },
            "headers": {"content-type": "application/json"},
        },
        "configuration": {"CARD_PRODUCT": "acme-virtual-debit", "MARQETA_CREDENTIALS": "demo"},
    },
    ("Loyalty points accrual", "request_transform"): {
        "args": {
            "body": {"member_number": "AC 1234 5678", "amount": 12900, "order_id": "ord_1042"},
            "headers": {"content-type": "application/json", "x-request-id": "req_9Kd1"},
        },
        "configuration": {
            "PROGRAM_ID": "acme-rewards",
            "POINTS_PER_UNIT": "2",
            "LOYALTY_API_KEY": "demo",
        },
    },
}


REACTOR_SAMPLES: dict[str, dict[str, Any]] = {
    "Card BIN lookup": {
        "args": {"card_number": "4242 4242 4242 4242"},
        "configuration": {
            "ISSUER_TABLE": json.dumps(
                {"42424242": {"name": "Stripe Test Bank", "country": "US", "funding": "credit"}}
            ),
            "BLOCKED_COUNTRIES": "KP,IR,SY",
        },
    },
    "Fraud partner relay": {
        "args": {
            "order": {
                "id": "ord_1042",
                "amount": 12900,
                "currency": "eur",
                "email": "ada@example.com",
            },
            "card": {"bin": "42424242", "last4": "4242"},
        },
        "configuration": {
            "PARTNER_API_KEY": "demo-partner-key",
            "MERCHANT_ID": "acme-eu-01",
            "SCORE_THRESHOLD": "70",
        },
    },
}
"""A sample `{args, configuration}` for each demo reactor (by name): its test-run passes."""

PIPELINE_SAMPLES: dict[tuple[str, str], dict[str, Any]] = {
    ("Loyalty points accrual", "response"): {
        "args": {
            "body": {
                "member": "AC12345678",
                "points_awarded": 258,
                "balance": 4120,
                "ledger_id": "lg_99120",
            },
            "headers": {"content-type": "application/json"},
        },
        "configuration": {
            "PROGRAM_ID": "acme-rewards",
            "POINTS_PER_UNIT": "2",
            "LOYALTY_API_KEY": "demo",
        },
    },
}
"""A sample request for each demo pipeline of more than one step (by proxy and side): the
loyalty proxy's response, through its code, append_header and mask steps (its request side,
one code step, has its sample in TRANSFORM_SAMPLES)."""


def demo_samples() -> dict[str, str]:
    """Every demo object's sample, by the key the test-run screen keeps samples under, for
    production's objects and staging's: `formula-ID`, `reactor-ID` (and React's request,
    `react-ID`), a single transform's
    `proxy-ID-FIELD` and a pipeline's `proxy-ID-SIDE_transforms` (the proxy form runs a
    side's pipeline; on a service with pipelines a single transform is a one-step one, so
    its sample is kept under both keys)."""
    samples: dict[str, str] = {}
    for prefix in ("", STAGING_PREFIX):
        for name, sample in FORMULA_SAMPLES.items():
            samples[f"formula-{demo_id('formula', prefix + name)}"] = _text(sample)
        for name, sample in REACTOR_SAMPLES.items():
            reactor = demo_id("reactor", prefix + name)
            samples[f"reactor-{reactor}"] = _text(sample)
            samples[f"react-{reactor}"] = _text({"args": sample["args"]})  # React's request
        for (name, field), sample in TRANSFORM_SAMPLES.items():
            proxy = demo_id("proxy", prefix + name)
            samples[f"proxy-{proxy}-{field}"] = _text(sample)
            samples[f"proxy-{proxy}-{field}s"] = _text(sample)
        for (name, side), sample in PIPELINE_SAMPLES.items():
            samples[f"proxy-{demo_id('proxy', prefix + name)}-{side}_transforms"] = _text(sample)
    return samples


def _text(sample: dict[str, Any]) -> str:
    return json.dumps(sample, indent=2) + "\n"
