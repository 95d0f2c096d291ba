"""The generated __init__ of the frozen records (cardgame.engine.records.fast_init) against their attrs fields."""

from __future__ import annotations

import inspect
from typing import Any

import attrs
import pytest

from cardgame.engine import events as kernel_events
from cardgame.engine import outcomes, records
from cardgame.engine import stage as stage_module
from cardgame.model import events, pots
from cardgame.play import view
from cardgame.stages import results


def decorated() -> list[type]:
    found = []
    for module in (events, kernel_events, outcomes, pots, results, view):
        for value in vars(module).values():
            if isinstance(value, type) and attrs.has(value) and value.__module__ == module.__name__ \
                    and value.__init__.__module__ is None and attrs.fields(value):  # exec'd: no module
                found.append(value)
    return found


CLASSES = decorated()


def test_the_hot_records_use_the_generated_init() -> None:
    names = {cls.__name__ for cls in CLASSES}
    assert {"ActionTaken", "HoleCardsDealt", "BettingResult", "Done", "Goto", "Failed", "Pot", "SeatView",
            "TableView"} <= names


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_same_parameters_and_values_as_attrs_would_set(cls: type) -> None:
    fields = attrs.fields(cls)
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [inspect.Parameter.empty if f.default is attrs.NOTHING else f.default
                                           for f in fields]
    values: dict[str, Any] = {f.name: object() for f in fields}
    made = cls(**values)
    assert all(getattr(made, name) is value for name, value in values.items())
    assert made == cls(*values.values()) and hash(made) == hash(cls(*values.values()))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(made, fields[0].name, 1)
    required = {f.name: 0 for f in fields if f.default is attrs.NOTHING}
    defaults = cls(**required)
    assert all(getattr(defaults, f.name) == f.default for f in fields if f.default is not attrs.NOTHING)


def test_classes_it_cannot_serve_are_refused() -> None:
    @attrs.frozen
    class Checked:
        x: int = attrs.field(validator=attrs.validators.instance_of(int))

    with pytest.raises(TypeError, match="plain fields only"):
        records.fast_init(Checked)

    @attrs.frozen
    class Built:
        x: list[int] = attrs.Factory(list)

    with pytest.raises(TypeError, match="factories"):
        records.fast_init(Built)


def test_the_base_ending_hands_on_what_it_was_given_without_a_record() -> None:
    """The base machine's ``done`` hands on what the stage was given: ``outcome`` is the one frozen ``PassOn()``,
    not a record built for each stage."""

    class Plain(stage_module.Stage):
        name = "plain"
        __slots__ = ()

    result = object()
    s, t = Plain(), Plain()
    assert s.start(None, result) == outcomes.PassOn() and s.previous is result  # type: ignore[arg-type]
    assert t.start(None, object()) is s.outcome and type(s.outcome) is outcomes.PassOn  # type: ignore[arg-type]
    assert s.state == "done"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        s.outcome.result = 1  # type: ignore[union-attr]
