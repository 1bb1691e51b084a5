"""A new event type is one class in agent_core/events.py plus its place in the ``Event`` union.

Front ends dispatch over the union (the presenter exhaustively, tests/tui/
test_presenter_dispatch.py): a class left out of it would never be shown.
"""

from __future__ import annotations

import inspect
import typing

import msgspec

from agent_core import events as ev


def event_classes() -> set[type]:
    return {
        cls
        for _, cls in inspect.getmembers(ev, inspect.isclass)
        if issubclass(cls, ev._Event) and cls is not ev._Event
    }


def test_every_event_class_is_in_the_union() -> None:
    assert event_classes() == set(typing.get_args(ev.Event))


def test_every_event_has_a_distinct_wire_tag() -> None:
    tags = [msgspec.inspect.type_info(cls).tag for cls in event_classes()]
    assert len(tags) == len(set(tags)) and all(tags)
