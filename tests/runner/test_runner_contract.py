"""The request check before a run (declared parameters, configuration) and the prefill."""

from __future__ import annotations

from console.runner.contract import (
    check_formula_request,
    check_transform_request,
    formula_sample,
    transform_sample,
)

PARAMETERS = [
    {"name": "card.number", "type": "string"},
    {"name": "card.expiration.month", "type": "number"},
    {"name": "save", "type": "boolean", "optional": True},
    {"name": "note", "type": "string", "optional": True},
]
CONFIGURATION = [{"name": "PRIVATE_KEY", "type": "string"}, {"name": "RETRIES", "type": "number"}]


def test_a_request_that_meets_the_contract_passes_with_extra_arguments() -> None:
    request = {
        "args": {
            "card": {"number": "4242", "expiration": {"month": 12}, "brand": "visa"},
            "save": False,
            "anything": [1, {"nested": True}],
        },
        "configuration": {"PRIVATE_KEY": "k", "RETRIES": 3, "EXTRA": "kept"},
    }
    assert check_formula_request(request, PARAMETERS, CONFIGURATION) == []


def test_missing_and_mistyped_parameters_are_named() -> None:
    request = {
        "args": {"card": {"number": 4242}, "save": "yes"},
        "configuration": {"RETRIES": "3"},
    }
    assert check_formula_request(request, PARAMETERS, CONFIGURATION) == [
        "args.card.number must be a string, not number (4242).",
        "args.card.expiration.month is missing (number; args.card.expiration holds it).",
        'args.save must be a boolean, not string ("yes").',
        "configuration.PRIVATE_KEY is missing (string).",
        'configuration.RETRIES must be a number, not string ("3").',
    ]


def test_a_parent_that_is_not_an_object() -> None:
    problems = check_formula_request(
        {"args": {"card": "4242"}, "configuration": {}}, PARAMETERS[:1]
    )
    assert problems == ["args.card must be an object (it holds card.number), not string."]


def test_optional_parameters_may_be_absent_with_their_parent() -> None:
    parameters = [{"name": "meta.source", "type": "string", "optional": True}]
    assert check_formula_request({"args": {}, "configuration": {}}, parameters) == []


def test_a_type_of_the_services_own_is_not_judged() -> None:
    parameters = [{"name": "when", "type": "date"}]
    assert check_formula_request({"args": {"when": 5}}, parameters) == []


def test_the_request_itself_must_be_an_object_of_args_and_configuration() -> None:
    assert check_formula_request([1]) == [
        "The request must be an object with args and configuration, not array."
    ]
    assert check_formula_request({"args": [], "body": 1}) == [
        "The request holds only args and configuration; not body.",
        "args must be an object, not array.",
    ]


def test_a_transform_request_needs_body_headers_and_string_settings() -> None:
    assert check_transform_request(transform_sample({"A": "b"})) == []
    assert check_transform_request({"args": {"headers": []}, "configuration": {"N": 1}}) == [
        "args.body is missing.",
        "args.headers must be an object, not array.",
        "configuration.N must be a string (a proxy's configuration maps names to strings), "
        "not number.",
    ]


def test_the_formula_sample_has_a_value_of_each_declared_type() -> None:
    class Formula:
        request_parameters = PARAMETERS
        configuration = CONFIGURATION

    sample = formula_sample(Formula())
    assert sample == {
        "args": {
            "card": {"number": "text", "expiration": {"month": 1}},
            "save": True,
            "note": "text",
        },
        "configuration": {"PRIVATE_KEY": "text", "RETRIES": 1},
    }
    assert check_formula_request(sample, PARAMETERS, CONFIGURATION) == []
