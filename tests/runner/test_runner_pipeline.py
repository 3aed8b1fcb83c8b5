"""A proxy's transform pipeline run locally: the steps the console applies itself (pure
functions), and a pipeline of two code steps through the sandboxed engine."""

from __future__ import annotations

import copy
import shutil

import pytest
from runner_support import NODE_MISSING, TRANSFORM_REQUEST

from console.runner.pipeline import (
    StepProblem,
    append_header,
    append_json,
    append_text,
    apply_local,
    json_path_parts,
    mask,
    mask_text,
    run_pipeline,
)


def request(body: object = None, headers: object = None) -> dict[str, object]:
    return {
        "args": {"body": body, "headers": {} if headers is None else headers},
        "configuration": {},
    }


def test_append_header_sets_a_header_replacing_one_of_that_name_in_any_case() -> None:
    before = request({"a": 1}, {"Content-Type": "application/json", "X-Old": "1"})
    after = append_header(before, "Bearer t", "x-old")
    assert after["args"]["headers"] == {"Content-Type": "application/json", "x-old": "Bearer t"}
    assert before["args"]["headers"]["X-Old"] == "1"  # the input is never changed


def test_append_text_adds_to_a_text_body_and_to_a_json_body_as_text() -> None:
    assert append_text(request("abc"), "def")["args"]["body"] == "abcdef"
    assert append_text(request(None), "x")["args"]["body"] == "x"
    assert append_text(request({"a": 1}), "!")["args"]["body"] == '{"a": 1}!'


def test_append_json_sets_the_value_at_its_path_creating_objects_on_the_way() -> None:
    after = append_json(request({"card": {"number": "4242"}}), "tok_1", "$.card.token")
    assert after["args"]["body"] == {"card": {"number": "4242", "token": "tok_1"}}
    after = append_json(request(None), "v", "meta.source")
    assert after["args"]["body"] == {"meta": {"source": "v"}}
    after = append_json(request('{"items": ["a"]}'), "b", "$.items[1]")
    assert after["args"]["body"] == {"items": ["a", "b"]}
    assert json_path_parts("$.a['b c'][2]") == ["a", "b c", 2]


@pytest.mark.parametrize(
    ("body", "location", "said"),
    [
        ("not json", "$.a", "not JSON"),
        ({"a": "text"}, "$.a.b", "holds a value"),
        ({"a": ["x"]}, "$.a.b", "no object there"),
        ({"a": []}, "$.a[3]", "not a place"),
        ({"a": 1}, "$", "whole body"),
        ({"a": 1}, "$.a..b", "not a JSON path"),
    ],
)
def test_append_json_says_why_a_place_cannot_be_set(body: object, location: str, said: str) -> None:
    with pytest.raises(StepProblem, match=said):
        append_json(request(body), "v", location)


def test_mask_replaces_each_capture_group_value_in_the_matched_section() -> None:
    assert mask_text("aabbccaabbccaa", "^(aa).*?$", "*") == "**bbcc**bbcc**"
    body = {"username": "bsmith1486", "accountNumber": "56834512"}
    after = mask(request(body), r'"accountNumber":\s*"(.*?)"', "*")
    assert after["args"]["body"] == {"username": "bsmith1486", "accountNumber": "********"}
    assert mask(request("pan 4242 end"), r"pan (\d+)", "#")["args"]["body"] == "pan #### end"


def test_apply_local_reports_each_type_and_never_runs_what_only_the_service_can() -> None:
    sample = copy.deepcopy(TRANSFORM_REQUEST)
    status, message, after = apply_local(
        {"type": "append_header", "options": {"value": "v", "location": "X-A"}}, sample
    )
    assert (status, after["args"]["headers"]["X-A"]) == ("ok", "v")
    status, message, after = apply_local(
        {"type": "tokenize", "options": {"token": {"type": "token"}, "identifier": "t"}}, sample
    )
    assert status == "not_run_here" and "only the service" in message and after == sample
    status, message, after = apply_local(
        {"type": "mask", "matcher": "chase_stratus_pan", "replacement": "*"}, sample
    )
    assert status == "not_run_here" and after == sample
    status, message, after = apply_local({"type": "mask", "matcher": "regex"}, sample)
    assert status == "error" and after is None
    status, message, after = apply_local({"type": "future_step", "x": 1}, sample)
    assert status == "not_run_here" and "does not know" in message


def test_a_failed_local_step_stops_the_pipeline_and_skips_the_rest() -> None:
    run = run_pipeline(
        [
            {"type": "append_json", "options": {"value": "v", "location": "$.card_number.x"}},
            {"type": "append_header", "options": {"value": "v", "location": "X-A"}},
        ],
        copy.deepcopy(TRANSFORM_REQUEST),
        run=lambda *a, **k: pytest.fail("no code step here"),
    )
    assert [s.status for s in run.steps] == ["error", "skipped"]
    assert run.final is None and not run.ok
    assert run.message.startswith("Failed at step 1 (append_json): ")


@pytest.mark.skipif(shutil.which("node") is None, reason=NODE_MISSING)
def test_two_code_steps_each_receive_what_the_one_before_returned() -> None:
    first = (
        "module.exports = async (req) => ({\n"
        "  body: { ...req.args.body, seen: [req.configuration.KEY] },\n"
        "  headers: { ...req.args.headers, 'x-first': '1' },\n"
        "});\n"
    )
    second = (
        "module.exports = (req) => ({\n"
        "  body: { ...req.args.body, seen: [...req.args.body.seen, 'second'] },\n"
        "  headers: req.args.headers,\n"
        "});\n"
    )
    steps = [
        {"type": "code", "code": first},
        {"type": "append_header", "options": {"value": "abc", "location": "X-Between"}},
        {"code": second},
    ]
    run = run_pipeline(steps, copy.deepcopy(TRANSFORM_REQUEST))
    assert [s.status for s in run.steps] == ["ok", "ok", "ok"], run.message
    assert run.final["args"]["body"] == {"card_number": "4242", "seen": ["value", "second"]}
    assert run.final["args"]["headers"] == {
        "content-type": "application/json",
        "x-first": "1",
        "X-Between": "abc",
    }
    assert run.steps[0].run is not None and run.steps[0].run.ok


@pytest.mark.skipif(shutil.which("node") is None, reason=NODE_MISSING)
def test_a_code_step_that_throws_is_the_error_with_its_place() -> None:
    steps = [
        {"type": "code", "code": "module.exports = (req) => req.args;\n"},
        {"type": "code", "code": "module.exports = (req) => {\n  null.x;\n};\n"},
        {"type": "append_text", "options": {"value": "!"}},
    ]
    run = run_pipeline(steps, copy.deepcopy(TRANSFORM_REQUEST))
    assert [s.status for s in run.steps] == ["ok", "error", "skipped"]
    failed = run.failed
    assert failed is not None and failed.run is not None and failed.run.error is not None
    assert failed.run.error.line == 2
    assert "step 2 (code)" in run.message and "line 2" in run.message
