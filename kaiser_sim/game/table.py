"""One deal's double-dummy table: a result object, JSON-ready dicts and readable text.

A *table* is one deal's slice of :func:`kaiser_sim.dd_table`: a ``(4, 5)``
integer array, rows the leader N E S W, columns the strain S H D C N, each
value for the leader's side (a sixth column, low no trump ``L``, under rules
that play it).  :class:`DDTable` wraps such an array with its mode and its
strains: index it by seat and strain (``t["N", "NT"]``, ``t[Seat.E,
Strain.S]``), turn it into a DataFrame, a dict or text.  The functions below
turn plain arrays into the shapes the command line prints, so every command
(and any script) writes them the same way:

- :func:`table_to_dict` / :func:`dict_to_table`: ``{"N": {"S": 3, ...}, ...}``,
  outer key the leader, inner key the strain (``"N"`` is no trump);
- :func:`deal_record`: the object of one ``solve --format jsonl`` line;
- :func:`format_table_text` / :func:`format_deal_text`: the ``table`` format.

Each accepts a :class:`DDTable` wherever it takes an array.  Seat and strain
words come from :mod:`kaiser_sim.cards` (``Seat``, ``Strain``: names, labels,
``parse``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from ..cards import STRAIN_KEYS, STRAINS, Seat, Strain

#: The solver's modes, in the order they appear in records and text.
MODES = ("points", "tricks")

#: Row keys (leaders) and column keys (strains) of a table, in array order.
LEADER_KEYS = tuple(s.name for s in Seat)  # N E S W

#: Column headings of the text table (the strains' labels: no trump written NT, not "N" twice).
_STRAIN_HEADINGS = tuple(s.label for s in STRAINS)

_MODE_TITLES = {
    "points": "Points for the leader's side (1 a trick, +5 for the trick with the 5H, -3 for the one with the 3S)",
    "tricks": "Tricks for the leader's side (plain tricks, the 5H and 3S count as ordinary cards)",
}


#: a sixth column, low no trump, appears under rules that play it
LOW_NT_KEY = Strain.L.name


def _check_table(table) -> np.ndarray:
    table = np.asarray(table)
    if table.shape not in ((len(LEADER_KEYS), len(STRAIN_KEYS)), (len(LEADER_KEYS), len(STRAIN_KEYS) + 1)):
        raise ValueError(f"a dd table has shape (4, 5) (or (4, 6) with low no trump), got {table.shape}")
    return table


def _strain_keys(table) -> tuple[str, ...]:
    return STRAIN_KEYS + ((LOW_NT_KEY,) if table.shape[1] == len(STRAIN_KEYS) + 1 else ())


def table_to_dict(table) -> dict[str, dict[str, int]]:
    """``{"N": {"S": 3, "H": 5, "D": 4, "C": 2, "N": 1}, "E": {...}, ...}``.

    Parameters
    ----------
    table : (4, 5) array-like of int, or a :class:`DDTable`
        One deal of ``dd_table``: leader N E S W by strain S H D C N.

    Returns
    -------
    dict
        Outer key the leader, inner key the strain, values plain ``int``
        (so ``json.dumps`` accepts them).
    """
    table = _check_table(table)
    keys = _strain_keys(table)
    return {
        leader: {strain: int(table[i, j]) for j, strain in enumerate(keys)}
        for i, leader in enumerate(LEADER_KEYS)
    }


def dict_to_table(d: Mapping[str, Mapping[str, int]]) -> np.ndarray:
    """Inverse of :func:`table_to_dict`: a ``(4, 5)`` ``int8`` array (``(4, 6)``
    when the inner dicts hold low no trump, ``"L"``)."""
    keys = STRAIN_KEYS + ((LOW_NT_KEY,) if LOW_NT_KEY in d[LEADER_KEYS[0]] else ())
    return np.array([[d[leader][strain] for strain in keys] for leader in LEADER_KEYS], dtype=np.int8)


def deal_record(deal: str, tables: Mapping[str, np.ndarray]) -> dict:
    """The JSON object of one solved deal.

    Parameters
    ----------
    deal : str
        The deal in canonical notation (``format_deal`` of the parsed deal).
    tables : mapping mode -> (4, 5) table (or :class:`DDTable`)
        Any subset of :data:`MODES`; keys come out in :data:`MODES` order.

    Returns
    -------
    dict
        ``{"deal": "N:...", "points": {...}, "tricks": {...}}`` with only the
        modes given.
    """
    record: dict = {"deal": deal}
    for mode in MODES:
        if mode in tables:
            record[mode] = table_to_dict(tables[mode])
    return record


def format_table_text(table, mode: str) -> str:
    """One table as aligned text: a title naming the mode, a heading row of
    strains, then one row per leader.  No trailing newline.

    Example (points)::

        Points for the leader's side (...)
        Leader   S   H   D   C  NT
        N        3   5   4   2   1
        ...
    """
    table = _check_table(table)
    if mode not in _MODE_TITLES:
        raise ValueError(f"unknown mode {mode!r} (use one of {', '.join(MODES)})")
    headings = _STRAIN_HEADINGS + ((Strain.L.label,) if table.shape[1] > len(_STRAIN_HEADINGS) else ())
    lines = [_MODE_TITLES[mode], "Leader" + "".join(f"{h:>{max(4, len(h) + 1)}}" for h in headings)]
    for i, leader in enumerate(LEADER_KEYS):
        lines.append(f"{leader:<6}" + "".join(f"{int(v):>5}" if j == 5 else f"{int(v):>4}" for j, v in enumerate(table[i])))
    return "\n".join(lines)


def format_deal_text(deal: str, tables: Mapping[str, np.ndarray], title: str | None = None) -> str:
    """A deal line followed by one text table per mode (in :data:`MODES`
    order), separated by blank lines.  ``title`` replaces the default
    ``"Deal"`` label (e.g. ``"Deal 3 (line 7)"``).  No trailing newline."""
    blocks = [f"{title or 'Deal'}: {deal}"]
    blocks += [format_table_text(tables[mode], mode) for mode in MODES if mode in tables]
    return "\n\n".join(blocks)


@dataclass(frozen=True, eq=False)
class DDTable:
    """One deal's double-dummy table: value for the leader's side, by leader and strain.

    Parameters
    ----------
    values : (4, 5) or (4, 6) array-like of int
        Rows the leader N E S W, columns the strains S H D C N (and L, low no
        trump): one deal of :func:`kaiser_sim.dd_table` (or of
        ``dd_table_for_rules``).  Kept as a read-only ``int8`` copy.
    mode : ``"points"`` or ``"tricks"``
        What the values count.

    Attributes
    ----------
    strains : tuple of :class:`~kaiser_sim.cards.Strain`
        The columns' strains, in order (from the shape).

    Examples
    --------
    >>> t = DDTable(kaiser_sim.dd_table(deal)[0], "points")   # doctest: +SKIP
    >>> t["N", "NT"], t[Seat.E, Strain.S], t["south", "hearts"]  # doctest: +SKIP
    >>> t.to_frame(); t.to_dict(); print(t)                   # doctest: +SKIP
    """

    values: np.ndarray
    mode: str = "points"
    strains: tuple[Strain, ...] = field(init=False)

    def __post_init__(self):
        values = np.array(_check_table(self.values), dtype=np.int8)
        values.flags.writeable = False
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r} (use one of {', '.join(MODES)})")
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "strains", STRAINS + ((Strain.L,) if values.shape[1] > len(STRAINS) else ()))

    # --- reading ----------------------------------------------------------------------------

    def _seat(self, key) -> Seat:
        return Seat(int(key)) if isinstance(key, (int, np.integer)) else Seat.parse(key)

    def _column(self, key) -> int:
        strain = Strain(int(key)) if isinstance(key, (int, np.integer)) else Strain.parse(key)
        if strain not in self.strains:
            raise KeyError(f"{strain.noun} is not a column of this table "
                           f"({', '.join(s.label for s in self.strains)})")
        return self.strains.index(strain)

    def __getitem__(self, key) -> int:
        """``t[seat, strain]``: the value with ``seat`` on lead in ``strain``,
        for the leader's side.  Either may be its enum, its number or any
        spelling :meth:`Seat.parse` / :meth:`Strain.parse` read (``"N"``,
        ``"north"``; ``"NT"``, ``"N"``, ``"no trump"``, ``"♠"``, ``"LNT"``)."""
        if not isinstance(key, tuple) or len(key) != 2:
            raise TypeError("index a DDTable by (seat, strain), e.g. t['N', 'NT']")
        return int(self.values[self._seat(key[0]), self._column(key[1])])

    def __array__(self, dtype=None, copy=None):
        return self.values if dtype is None else self.values.astype(dtype)

    def __eq__(self, other) -> bool:
        if not isinstance(other, DDTable):
            return NotImplemented
        return self.mode == other.mode and np.array_equal(self.values, other.values)

    def __hash__(self) -> int:
        return hash((self.mode, self.values.tobytes(), self.values.shape))

    # --- converting ---------------------------------------------------------------------------

    def to_frame(self):
        """A ``pandas.DataFrame``: index the leaders N E S W (named
        ``leader``), columns the strains' labels S H D C NT (and LNT), named
        ``strain``."""
        import pandas as pd

        return pd.DataFrame(self.values, index=pd.Index(LEADER_KEYS, name="leader"),
                            columns=pd.Index([s.label for s in self.strains], name="strain"))

    def to_dict(self) -> dict[str, dict[str, int]]:
        """The JSON shape (:func:`table_to_dict`): ``{"N": {"S": 3, ..., "N":
        1}, "E": ..., ...}``, outer key the leader, inner key the strain."""
        return table_to_dict(self.values)

    @classmethod
    def from_dict(cls, d: Mapping[str, Mapping[str, int]], mode: str = "points") -> DDTable:
        """The table of a :meth:`to_dict` (or a ``solve`` JSON record's
        ``"points"`` / ``"tricks"`` value)."""
        return cls(dict_to_table(d), mode)

    def to_text(self) -> str:
        """The text table of ``kaiser-sim solve`` (:func:`format_table_text`)."""
        return format_table_text(self.values, self.mode)

    def __str__(self) -> str:
        return self.to_text()


__all__ = ["DDTable", "MODES", "LEADER_KEYS", "STRAIN_KEYS", "LOW_NT_KEY", "table_to_dict", "dict_to_table",
           "deal_record", "format_table_text", "format_deal_text"]
