"""An engine's report comes from a process that ran hostile code: whatever it holds, reading it
gives an outcome that says what went wrong, never an exception."""

from __future__ import annotations

import json

import pytest

from console.runner.engines import _outcome_from


@pytest.mark.parametrize(
    ("report", "said"),
    [
        ("[" * 5000 + "]" * 5000, "not readable JSON (RecursionError)"),
        ('{"status": "ok", "result_json": "' + "[" * 200 + "]" * 200 + '"}', "nested deeper"),
        ("{not json", "not readable JSON"),
        ("[1, 2]", "not an object"),
        ('{"status": "rooted"}', "an unknown status 'rooted'"),
        ('{"status": "ok", "logs": [1]}', "a field has the wrong type"),
        ('{"status": "ok", "engine_ms": "soon"}', "a field has the wrong type"),
    ],
    ids=["deep", "deep-result", "malformed", "array", "status", "logs", "engine-ms"],
)
def test_an_unreadable_report_is_an_engine_error(report: str, said: str) -> None:
    outcome = _outcome_from(report, 0)
    assert outcome.status == "engine_error"
    assert outcome.error is not None
    assert outcome.error.message.startswith("The run's result could not be read: ")
    assert said in outcome.error.message


def test_a_result_over_the_depth_limit_is_too_deep() -> None:
    value = json.dumps({"raw": json.loads("[" * 101 + "]" * 101)})
    outcome = _outcome_from(json.dumps({"status": "ok", "result_json": value}), 0)
    assert outcome.status == "too_deep"
    assert outcome.value is None
    assert outcome.error is not None and "nested over 100 levels" in outcome.error.message
