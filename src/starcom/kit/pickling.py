"""Pickling for the rules' records in both builds (docs/build.md).

A class compiled by mypyc pickles by itself only when its constructor takes no argument, and a
frozen one not even then (loading sets its fields one by one). The records that travel to other
processes (the AI workers get games by pickle) therefore say how to rebuild them:
``__reduce__`` returns :func:`reduce_dataclass` of themselves, which makes the record again
through its constructor. This module stays Python in both builds."""
from __future__ import annotations

from dataclasses import fields
from typing import Any


def reduce_dataclass(obj: Any) -> tuple[Any, ...]:
    """``__reduce__`` of a dataclass instance: its class made again with its init fields, then
    its other fields set (even on a frozen record)."""
    given = {f.name: getattr(obj, f.name) for f in fields(obj) if f.init}
    rest = {f.name: getattr(obj, f.name) for f in fields(obj) if not f.init}
    return (restore_dataclass, (type(obj), given, rest))


def restore_dataclass(cls: Any, given: dict[str, Any], rest: dict[str, Any]) -> Any:
    obj = cls(**given)
    for name, value in rest.items():
        object.__setattr__(obj, name, value)
    return obj
