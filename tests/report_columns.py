"""What the report's tables must keep, read from its Markdown (shared by the
tests of a built report and of the committed edition)."""

from __future__ import annotations

import re

#: an estimate cell: ``x [lo, hi]`` (bold, signed, with thousands separators); group 1 its decimals
ESTIMATE = re.compile(r"^\*{0,2}[-+−]?\d[\d,]*(?:\.(\d+))? \[")


def mixed_precision_columns(markdown: str) -> list:
    """Issue 43, item 6: ``(header, decimals, first row)`` of each table
    column whose estimates (``x [lo, hi]``) print more than one number of
    decimals; a column that mixes percentages and points says so in its
    header ("% or points") and is left out."""
    mixed = []
    for block in re.split(r"\n(?!\|)", markdown):
        rows = [[c.strip() for c in r.strip().strip("|").split("|")] for r in block.splitlines() if r.startswith("|")]
        if len(rows) < 3:
            continue
        for j, head in enumerate(rows[0]):
            if "% or points" in head:
                continue
            decimals = {len(m.group(1) or "") for r in rows[2:] if j < len(r) and (m := ESTIMATE.match(r[j]))}
            if len(decimals) > 1:
                mixed.append((head, sorted(decimals), rows[2][0]))
    return mixed
