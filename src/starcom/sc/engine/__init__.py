"""The rules engine of Star Commander: a pure, deterministic state machine (docs/architecture.md).

Its modules are imported by name (``.game``, ``.state``, ``.moves`` ...): the package itself
imports nothing, so card effects built on the engine never run the composition root first.
"""
