"""Lists of deals as text: one deal a line, in and out.

Formats
-------
``pbn``
    The deal in PBN deal notation, ``N:<north> <east> <south> <west>``
    (see :func:`kaiser_sim.cards.parse_deal`).  Only the deal string of PBN,
    one per line, not a PBN file with tags.
``jsonl``
    One JSON object a line with the deal under the key ``"deal"``:
    ``{"deal": "N:..."}``.  Other keys are ignored on input, so the output of
    ``kaiser-sim solve --format jsonl`` can be read back.

Reading (:func:`read_deals`) accepts both formats, even mixed, skips blank
lines and lines whose first non-blank character is ``#`` (comments), and
checks the *whole* input before returning: either every deal is good, or
:class:`DealInputError` lists the bad lines by line number (1-based, counting
blank and comment lines too).  Input that is not a deal file at all stops
the reading at once: a line that is not UTF-8 text (lines may be given as
bytes) or longer than :data:`MAX_LINE` characters.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

import numpy as np

from ..errors import KaiserSimError
from ..cards import NotationError, format_deal, parse_deal

FORMATS = ("pbn", "jsonl")

#: At most this many bad lines are spelled out in a :class:`DealInputError`.
MAX_REPORTED_ERRORS = 10

#: The longest input line read (characters): a deal takes under 60, a line of
#: ``kaiser-sim solve --format jsonl`` under 1,000.  A longer line stops the
#: reading (the input is not a deal file).
MAX_LINE = 100_000


class DealInputError(KaiserSimError):
    """Bad lines in a list of deals.

    ``errors`` holds every ``(line_number, message)``; ``str()`` spells out the
    first :data:`MAX_REPORTED_ERRORS`, one ``line N: problem`` per line, and
    counts the rest.  With no bad line (an input without deals) ``errors`` is
    empty and ``message`` says what is wrong.
    """

    def __init__(self, errors: list[tuple[int, str]], message: str | None = None):
        self.errors = errors
        if message is None:
            shown = [f"line {n}: {msg}" for n, msg in errors[:MAX_REPORTED_ERRORS]]
            if len(errors) > MAX_REPORTED_ERRORS:
                shown.append(f"... and {len(errors) - MAX_REPORTED_ERRORS} more bad lines")
            message = "\n".join(shown)
        super().__init__(message)


def _deal_text(line: str) -> str:
    """The deal notation on one input line (pbn or jsonl); NotationError if a
    JSON line has no deal string."""
    if not line.startswith("{"):
        return line
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        raise NotationError(f"not valid JSON ({e.msg} at column {e.colno})") from None
    except RecursionError:
        raise NotationError("JSON nested too deeply") from None
    except ValueError as e:  # e.g. a number beyond Python's 4300-digit limit
        raise NotationError(f"JSON cannot be read ({_too_long(e)})") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("deal"), str):
        raise NotationError('a JSON line needs a "deal" string, like {"deal": "N:..."}')
    return obj["deal"]


def read_deals(lines: Iterable[str], source: str = "input", *, deck34: bool = False,
               max_cards: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Parse a list of deals, one a line, checking all of it first.

    Parameters
    ----------
    lines : iterable of str
        The input lines (an open text file works).  Blank lines and ``#``
        comment lines are skipped; each other line is a deal in ``pbn`` or
        ``jsonl`` format.
    source : str
        Name of the input, used in the message when it holds no deal.
    deck34, max_cards : the deck (34 cards with the 7S and 7H, rules K2) and
        the largest hand allowed (see :func:`kaiser_sim.cards.parse_deal`).

    Returns
    -------
    deals : (n, 4) uint64 array
        The deals, hands indexed by seat N E S W.
    line_numbers : (n,) int64 array
        The 1-based input line of each deal.

    Raises
    ------
    DealInputError
        If any line is not a valid deal (all bad lines are collected), or the
        input holds no deal at all.
    """
    hands, numbers, errors = [], [], []
    for number, raw in _numbered_lines(lines, source, errors):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            hands.append(parse_deal(_deal_text(line), deck34=deck34, max_cards=max_cards))
            numbers.append(number)
        except NotationError as e:
            errors.append((number, str(e)))
    if errors:
        raise DealInputError(errors)
    if not hands:
        raise DealInputError([], f"no deals in {source}")
    return np.array(hands, dtype=np.uint64).reshape(-1, 4), np.array(numbers, dtype=np.int64)


def _numbered_lines(lines, source: str, errors: list) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of each input line.  A line given as bytes is
    decoded as UTF-8 (a byte-order mark on the first line is dropped); a line
    that is not UTF-8, or longer than :data:`MAX_LINE`, stops the reading with
    :class:`DealInputError` (with the ``errors`` found so far).  A file object
    is read with a bounded ``readline`` so that one endless line cannot fill
    the memory."""
    readline = getattr(lines, "readline", None)
    chunks = iter(lambda: readline(MAX_LINE + 1) or None, None) if readline is not None else iter(lines)
    number = 0
    while True:
        number += 1
        try:
            raw = next(chunks)
        except StopIteration:
            return
        except UnicodeDecodeError as e:  # a text stream that is not UTF-8
            _stop(errors, number, f"{source} is not UTF-8 text ({e.reason}); a deal file is text")
        except RecursionError:  # pragma: no cover - a pathological iterable
            _stop(errors, number, f"{source} cannot be read")
        if not isinstance(raw, (bytes, bytearray, str)):
            _stop(errors, number, f"not text ({type(raw).__name__})")
        if len(raw) > MAX_LINE + (1 if raw.endswith(b"\n" if isinstance(raw, (bytes, bytearray)) else "\n") else 0):
            _stop(errors, number, f"longer than {MAX_LINE:,} characters; a deal file has one deal a line")
        if isinstance(raw, (bytes, bytearray)):
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                text = bytes(raw).decode("utf-8")
            except UnicodeDecodeError as e:
                _stop(errors, number, f"not UTF-8 text (byte 0x{raw[e.start]:02x} at column {e.start + 1}); "
                                     "a deal file is text")
        else:
            text = raw[1:] if number == 1 and raw.startswith("\ufeff") else raw
        yield number, text


def _stop(errors: list, number: int, message: str):
    """Raise :class:`DealInputError`: the bad lines so far and line ``number``
    with ``message`` (the reading stops there)."""
    raise DealInputError(errors + [(number, f"{message}; stopped reading")])


def deal_lines(deals: np.ndarray, fmt: str = "pbn") -> Iterator[str]:
    """The deals as text lines (no newline): ``N:...`` for ``pbn``,
    ``{"deal": "N:..."}`` for ``jsonl``."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown deal format {fmt!r} (use one of {', '.join(FORMATS)})")
    for hands in deals:
        text = format_deal(hands)
        yield text if fmt == "pbn" else json.dumps({"deal": text})


def _too_long(e: ValueError) -> str:
    """The reason of a ValueError from a parser, said shortly."""
    text = str(e)
    return "a number has more than 4300 digits" if "digits" in text else text[:100]
