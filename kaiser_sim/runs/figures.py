"""Saving matplotlib figures reproducibly (used by the studies and the hand advisor).

In the runs layer, beside :mod:`~kaiser_sim.runs.output_dir` (the outputs'
files), so below the models and the studies that save figures with it; it
needs only matplotlib, imported when a figure is saved.
"""

from __future__ import annotations


def save_figure(fig, path, fmt: str) -> None:
    """``fig.savefig`` at 150 dpi, byte for byte the same for the same
    figure: an SVG gets no date and fixed element ids."""
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": "kaiser-sim"}):
        fig.savefig(path, format=fmt, dpi=150, metadata={"Date": None} if fmt in ("svg", "pdf") else None)


__all__ = ["save_figure"]
