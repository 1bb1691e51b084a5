"""Ops are tagged msgspec Structs: each one round-trips through JSON by its tag.

A new op is a class in agent_core/protocol/ops.py, its place in ``AnyOp`` and a case
in the session host's dispatch; the tests here and in test_session_host.py fail
when one of those is forgotten.
"""

from __future__ import annotations

import inspect
import typing
from typing import Any

import msgspec
import pytest

from agent_core.protocol import ops

OP_TYPES = typing.get_args(ops.AnyOp)


def sample(kind: msgspec.inspect.Type) -> Any:
    """A value of a field type that differs from its default, so the round trip shows it."""
    match kind:
        case msgspec.inspect.LiteralType():
            return kind.values[-1]
        case msgspec.inspect.StrType():
            return "x"
        case msgspec.inspect.ListType():
            return [sample(kind.item_type)]
        case msgspec.inspect.FloatType():
            return 1.5
        case msgspec.inspect.IntType():
            return 7
        case msgspec.inspect.BoolType():
            return True  # every bool field of an op defaults to False
        case msgspec.inspect.StructType():
            return kind.cls(**{f.name: sample(f.type) for f in kind.fields})
        case msgspec.inspect.DictType():
            return {"k": 1}
        case msgspec.inspect.UnionType():
            return sample(
                next(t for t in kind.types if not isinstance(t, msgspec.inspect.NoneType))
            )
    raise TypeError(f"no sample for {kind!r}: extend sample()")


def full(cls: type) -> Any:
    """An instance of an op with every field set."""
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    return cls(**{f.name: sample(f.type) for f in info.fields})


def test_every_op_class_is_in_the_union() -> None:
    classes = {
        cls
        for _, cls in inspect.getmembers(ops, inspect.isclass)
        if issubclass(cls, ops.Op) and cls is not ops.Op
    }
    assert classes == set(OP_TYPES)
    assert len(OP_TYPES) >= 16


def test_every_op_has_a_distinct_tag() -> None:
    tags = [ops.op_tag(full(cls)) for cls in OP_TYPES]
    assert len(tags) == len(set(tags)) and all(tags)


@pytest.mark.parametrize("cls", OP_TYPES, ids=lambda cls: cls.__name__)
def test_an_op_round_trips_through_json_by_its_tag(cls: type) -> None:
    op = full(cls)
    wire = ops.encode_op(op)
    assert msgspec.json.decode(wire)["op"] == ops.op_tag(op)
    assert ops.decode_op(wire) == op


def test_an_op_from_json_gets_its_defaults() -> None:
    assert ops.decode_op(b'{"op":"interrupt"}') == ops.Interrupt()
    assert ops.decode_op('{"op":"user_turn","text":"hi"}') == ops.UserTurn(text="hi")


@pytest.mark.parametrize(
    ("wire", "problem"),
    [
        (b'{"op":"no_such_op"}', "Invalid value 'no_such_op'"),
        (b'{"op":"set_mode","mode":"yolo"}', "`$.mode`"),
        (b'{"op":"approval_reply","approval_id":"a","decision":"allow"}', "`$.decision`"),
        (b'{"op":"resume"}', "missing required field `session_id`"),
    ],
)
def test_a_bad_op_is_refused_naming_the_problem(wire: bytes, problem: str) -> None:
    with pytest.raises(msgspec.ValidationError, match=problem.replace("$", r"\$")):
        ops.decode_op(wire)
