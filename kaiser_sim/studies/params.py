"""A study's parameters, declared beside its definition, and their check.

Each study module declares ``PARAMETERS``: one :class:`Param` for each
keyword argument of its ``run`` after ``results`` and ``rules``, in the same
order and with the same default (a test keeps them equal).  A declaration
says what the parameter takes (its kind, limits or choices), its default
and what it sets.  From it:

- the runner refuses bad parameters before any work (:func:`check_params`:
  an unknown name, a value of the wrong kind, out of its limits or not
  among its choices), with a message naming the parameter;
- ``kaiser-sim study --list`` shows every study's parameters
  (:func:`describe`);
- the definition files ``analyses/NAME.toml`` are written with each
  parameter's kind, limits and meaning as comments
  (:func:`kaiser_sim.studies.runner.definition_text`).

Nothing here names a study or a parameter: what each takes is in its
study's declaration.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import StudyError

#: the kinds a parameter can take, as messages say them (``list``: a list of strings)
KINDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a string", list: "a list"}


@dataclass(frozen=True)
class Param:
    """One parameter of a study's ``run``.

    ``kind``: ``int``, ``float``, ``bool``, ``str`` or ``list`` (a list of
    strings); a ``float`` takes a whole number too.  ``default``: ``run``'s
    default (``None``: not set, and ``unset`` says what that means; a value
    given must still be of ``kind``).  ``low`` / ``high``: the smallest and
    largest value of a number (inclusive; ``above_low``: ``low`` itself
    refused).  ``choices``: the values a string, or each item of a list, may
    take; ``min_items``: the fewest items of a list; ``fold_case``: choices
    compared as ``run`` reads them, case and surrounding spaces ignored.
    ``help``: what the parameter sets, one sentence."""

    name: str
    kind: type
    default: object
    help: str
    low: int | float | None = None
    high: int | float | None = None
    above_low: bool = False
    choices: tuple[str, ...] | None = None
    min_items: int = 1
    fold_case: bool = False
    unset: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise TypeError(f"parameter {self.name}: kind must be one of {', '.join(k.__name__ for k in KINDS)}")
        if (self.low is not None or self.high is not None) and self.kind not in (int, float):
            raise TypeError(f"parameter {self.name}: limits are for numbers")
        if self.choices is not None and self.kind not in (str, list):
            raise TypeError(f"parameter {self.name}: choices are for strings and lists")

    def takes(self) -> str:
        """What the parameter takes, as messages and listings say it: ``a
        whole number from 1 to 10,000``, ``one of a, b``, ..."""
        if self.choices is not None:
            names = ", ".join(self.choices)
            if self.kind is str:
                return f"one of {names}"
            return f"a list of at least {self.min_items} of {names}"
        if self.low is None and self.high is None:
            return KINDS[self.kind]
        return f"{KINDS[self.kind]} {self._range()}"

    def _range(self) -> str:
        low = _number(self.low) if self.low is not None else None
        high = _number(self.high) if self.high is not None else None
        if self.above_low:
            return f"above {low}" + (f" and at most {high}" if high is not None else "")
        if high is None:
            return f">= {low}"
        if low is None:
            return f"<= {high}"
        return f"from {low} to {high}"

    def check(self, value) -> None:
        """Refuse ``value`` (:class:`StudyError` naming the parameter) unless it
        is of the declared kind, within the limits and among the choices."""
        got = kind_of(value)
        want = KINDS[self.kind]
        if not (got == want or (self.kind is float and got == KINDS[int])):
            if self.default is None and (self.low is not None or self.high is not None):
                raise StudyError(f"parameter {self.name} must be {self.takes()}, got {short(value)}")
            shown = f" (default {self.default!r})" if self.default is not None else ""
            raise StudyError(f"parameter {self.name} must be {want}{shown}, got {short(value)}")
        if isinstance(value, float) and not math.isfinite(value):
            raise StudyError(f"parameter {self.name} must be a finite number, got {value!r}")
        if self.low is not None or self.high is not None:
            below = self.low is not None and (value <= self.low if self.above_low else value < self.low)
            if below or (self.high is not None and value > self.high):
                raise StudyError(f"parameter {self.name} must be {self.takes()}, got {short(value)}")
        if self.choices is not None:
            values = [value] if isinstance(value, str) else list(value)
            wrong = [v for v in values if not (isinstance(v, str) and self._among(v))]
            if wrong:
                raise StudyError(f"parameter {self.name}: {', '.join(map(short, wrong))} not among "
                                 f"{', '.join(self.choices)}")
            if len(values) < self.min_items:
                raise StudyError(f"parameter {self.name} needs at least {self.min_items} of "
                                 f"{', '.join(self.choices)}; got {short(value)}")

    def _among(self, text: str) -> bool:
        if self.fold_case:
            return text.strip().lower() in self.choices
        return text in self.choices


def kind_of(value) -> str:
    """The kind of ``value`` as messages say it (:data:`KINDS`; a tuple is a list)."""
    if isinstance(value, bool):
        return KINDS[bool]
    if isinstance(value, int):
        return KINDS[int]
    if isinstance(value, float):
        return KINDS[float]
    if isinstance(value, str):
        return KINDS[str]
    if isinstance(value, (list, tuple)):
        return KINDS[list]
    return type(value).__name__


def short(value, width: int = 40) -> str:
    """``repr(value)`` cut to ``width`` characters, for messages."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= width else f"{text[:width - 15]}... ({len(text):,} chars)"


def _number(x) -> str:
    return f"{x:,}" if isinstance(x, int) else f"{x:g}"


def check_params(declared: tuple[Param, ...], params: dict, study: str) -> None:
    """Refuse (:class:`StudyError`) any of ``params`` that ``declared`` (a
    study's ``PARAMETERS``) does not name or whose value its declaration
    refuses (:meth:`Param.check`); ``study`` names the study in messages."""
    by_name = {p.name: p for p in declared}
    bad = [k for k in params if k not in by_name]
    if bad:
        raise StudyError(f"unknown parameter(s) {', '.join(str(k)[:40] for k in bad)} for study {study}; "
                         f"parameters: {', '.join(by_name) or 'none'} (kaiser-sim study {study} --list)")
    for key, value in params.items():
        by_name[key].check(value)


def toml_value(value) -> str:
    """``value`` (a parameter's: a string, number, true/false or list of those) written as TOML."""
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML for {short(value)}")


def describe(param: Param) -> str:
    """One sentence on ``param``: what it takes, ``run``'s default and what
    it sets, as the listing and the definition files say it."""
    if param.default is None:
        default = f"not set: {param.unset}" if param.unset else "not set"
    else:
        default = f"default {toml_value(param.default)}"
    return f"{param.name} ({param.takes()}; {default}): {param.help}"


__all__ = ["Param", "KINDS", "check_params", "describe", "kind_of", "short", "toml_value"]
