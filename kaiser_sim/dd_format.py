"""Double-dummy tables as JSON-ready dicts and as readable text.

A *table* is one deal's slice of :func:`kaiser_sim.solver.dd_table`: a
``(4, 5)`` integer array, rows the leader N E S W, columns the strain
S H D C N, each value for the leader's side.  This module turns such tables
into the shapes the command line prints, so every command (and any script)
writes them the same way:

- :func:`table_to_dict` / :func:`dict_to_table`: ``{"N": {"S": 3, ...}, ...}``,
  outer key the leader, inner key the strain (``"N"`` is no trump);
- :func:`deal_record`: the object of one ``solve --format jsonl`` line;
- :func:`format_table_text` / :func:`format_deal_text`: the ``table`` format.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .cards import STRAINS, Seat, Strain

#: The solver's modes, in the order they appear in records and text.
MODES = ("points", "tricks")

#: Row keys (leaders) and column keys (strains) of a table, in array order.
LEADER_KEYS = tuple(s.name for s in Seat)  # N E S W
STRAIN_KEYS = tuple(s.name for s in STRAINS)  # S H D C N

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
    table : (4, 5) array-like of int
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
    tables : mapping mode -> (4, 5) table
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
