"""Reading stdin lines of the stream-json input, and what each control request becomes."""

from __future__ import annotations

import json

import pytest

from agent_core.messages import ImageBlock
from agent_core.protocol import ops
from agent_core.protocol.session import SessionSnapshot
from agent_core.sandbox.status import SandboxStatus
from agent_core.usage import Usage
from mewcode_tui.stream_json import control
from mewcode_tui.stream_json.lines import (
    BadLine,
    ControlRequest,
    ControlResponse,
    UserText,
    read_line,
)


def line(obj: object) -> str:
    return json.dumps(obj)


@pytest.mark.parametrize(
    ("raw", "read"),
    [
        (line({"type": "user", "message": {"role": "user", "content": "hi"}}), UserText("hi")),
        (
            line(
                {
                    "type": "user",
                    "message": {
                        "content": [
                            {"type": "text", "text": "a"},
                            {
                                "type": "image",
                                "source": {
                                    "type": "base64",
                                    "media_type": "image/png",
                                    "data": "AA",
                                },
                            },
                            {"type": "text", "text": "b"},
                        ]
                    },
                }
            ),
            UserText("a\n\nb", images=[ImageBlock("image/png", "AA")]),
        ),
        (
            line(
                {"type": "control_request", "request_id": "r1", "request": {"subtype": "interrupt"}}
            ),
            ControlRequest("r1", "interrupt", {"subtype": "interrupt"}),
        ),
        (
            line(
                {
                    "type": "control_response",
                    "response": {"subtype": "success", "request_id": "m1", "response": {"x": 1}},
                }
            ),
            ControlResponse("m1", {"x": 1}),
        ),
        (
            line(
                {
                    "type": "control_response",
                    "response": {"subtype": "error", "request_id": "m1", "error": "boom"},
                }
            ),
            ControlResponse("m1", {}, "boom"),
        ),
        ("   \n", None),
    ],
)
def test_each_kind_of_line_is_read_into_what_it_asks(raw: str, read: object) -> None:
    assert read_line(raw) == read


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("{nope", "not JSON"),
        ("[1, 2]", "expected a JSON object, got list"),
        ('{"message": {}}', 'no "type" field'),
        ('{"type": "assistant"}', "unknown type 'assistant'"),
        ('{"type": "user"}', 'needs a "message" object'),
        ('{"type": "user", "message": {"content": [{"type": "audio"}]}}', "content[0]"),
        (
            line({"type": "user", "message": {"content": [{"type": "image", "source": {}}]}}),
            "content[0].source: only",
        ),
        (
            line(
                {
                    "type": "user",
                    "message": {
                        "content": [
                            {"type": "image", "source": {"type": "url", "url": "http://x/a.png"}}
                        ]
                    },
                }
            ),
            "base64",
        ),
        ('{"type": "control_request", "request": {"subtype": "x"}}', "request_id"),
        ('{"type": "control_response", "response": {}}', "request_id"),
    ],
)
def test_a_malformed_line_is_a_bad_line_naming_the_problem(raw: str, reason: str) -> None:
    got = read_line(raw)
    assert isinstance(got, BadLine) and reason in got.reason


def test_a_control_request_without_a_subtype_can_still_be_answered() -> None:
    got = read_line(line({"type": "control_request", "request_id": "r9", "request": {}}))
    assert isinstance(got, BadLine) and got.request_id == "r9"


def snapshot(**kw) -> SessionSnapshot:
    return SessionSnapshot(
        session_id="s1",
        cwd="/p",
        mode="default",
        model="m-1",
        provider="anthropic",
        usage=Usage(),
        cost_usd=0.0,
        context_tokens=0,
        context_window=1000,
        sandbox=SandboxStatus(backend="none", available=False),
        mcp=[],
        tools=["Read"],
        running=False,
        **kw,
    )


def request(subtype: str, **body) -> ControlRequest:
    return ControlRequest("r1", subtype, {"subtype": subtype, **body})


def test_control_requests_become_answers_ops_or_refusals() -> None:
    snap = snapshot()
    assert isinstance(
        control.plan_control(request("initialize"), snap, running=False), control.Answer
    )
    assert control.plan_control(request("interrupt"), snap, running=False) == control.Answer({})
    interrupt = control.plan_control(request("interrupt"), snap, running=True)
    assert isinstance(interrupt, control.Submit) and isinstance(interrupt.op, ops.Interrupt)
    mode = control.plan_control(request("set_permission_mode", mode="plan"), snap, running=False)
    assert isinstance(mode, control.Submit) and mode.op == ops.SetMode(mode="plan")
    bad_mode = control.plan_control(
        request("set_permission_mode", mode="yolo"), snap, running=False
    )
    assert isinstance(bad_mode, control.Fail) and "yolo" in bad_mode.error
    model = control.plan_control(request("set_model", model="m-2"), snap, running=False)
    assert isinstance(model, control.Submit) and model.op == ops.SetModel(model="m-2")
    assert isinstance(
        control.plan_control(request("set_model", model=None), snap, running=False), control.Fail
    )
    status = control.plan_control(request("mcp_status"), snap, running=False)
    assert status == control.Answer({"mcpServers": []})
    unknown = control.plan_control(request("rewind_files"), snap, running=False)
    assert isinstance(unknown, control.Fail) and "'rewind_files'" in unknown.error
