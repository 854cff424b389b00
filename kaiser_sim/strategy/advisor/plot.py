"""The hand advisor's chart: the chance of making each bid in the chosen strains
(:func:`plot_make_probability`, :func:`save_plot`).
"""

from __future__ import annotations

from ... import __version__
from ...cards import Seat
from .inputs import AdvisorInputError, STRAIN_NAMES, STRAIN_SHORT
from .results import HandAdvice, heard_text


# --- the chart -------------------------------------------------------------------------------

PLOT_FORMATS = ("png", "svg", "pdf")


def plot_format(path) -> str:
    """The image format of ``path`` from its extension; :class:`AdvisorInputError`
    if it is not one of :data:`PLOT_FORMATS`."""
    ext = str(path).rsplit(".", 1)[-1].lower() if "." in str(path) else ""
    if ext not in PLOT_FORMATS:
        raise AdvisorInputError(f"--plot {path}: give a file ending in " + ", ".join(f".{e}" for e in PLOT_FORMATS))
    return ext


def plot_make_probability(a: HandAdvice, ax=None):
    """Make probability by bid, one line per strain with its 95% band: table
    play (solid, DD dashed beside it) when the advice is on table play, else
    DD (Wilson bands).  Returns the Figure."""
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(7, 4.5))
    else:
        fig = ax.figure
    pre = "table_" if a.table else ""
    for key in a.points.index:
        d = a.make[a.make["strain"] == key]
        line, = ax.plot(d["bid"], 100 * d[f"{pre}p"], marker="o",
                        label=f"{STRAIN_SHORT[key]} ({STRAIN_NAMES[key]})")
        ax.fill_between(d["bid"], 100 * d[f"{pre}lo"], 100 * d[f"{pre}hi"], color=line.get_color(), alpha=0.15,
                        linewidth=0)
        if a.table:
            ax.plot(d["bid"], 100 * d["p"], linestyle="--", linewidth=0.8, color=line.get_color())
    what = "table play (dashed: double dummy)" if a.table else "double dummy"
    ax.set_title(f"Make probability by bid, {what}: {Seat(a.seat).name} holds {a.hand_text}", fontsize="medium")
    ax.set_xlabel("bid (points the declaring side must take)")
    ax.set_ylabel("P(make), %")
    ax.set_xticks(a.levels)
    ax.set_ylim(-2, 102)
    ax.grid(alpha=0.3)
    ax.legend(title="strain", fontsize="small")
    band = ("table play: PIMC-player model over DD values, bands: mean +- 1.96 SE over deals" if a.table
            else "double dummy, bands: 95% Wilson intervals")
    import textwrap

    heard = a.heard
    deals = (f"{a.n:,} deals consistent with {heard_text(a.auction)} under the {heard.bidders} model"
             if heard is not None and heard.heard and a.auction.calls else f"{a.n:,} deals")
    footer = (f"{deals}, seed {a.seed}, rules {a.rules.label}; {Seat(a.seat).name} on lead; {band}; "
              f"kaiser-sim {__version__}")
    # wrapped to the figure's width (7 inches at 7 points: about 125 characters a line)
    fig.text(0.01, 0.01, "\n".join(textwrap.wrap(footer, 120)), fontsize=7, color="0.4", va="bottom")
    fig.subplots_adjust(bottom=0.2)
    return fig


def save_plot(a: HandAdvice, path) -> None:
    """Draw :func:`plot_make_probability` and save it to ``path`` (format from
    the extension: png, svg or pdf)."""
    import matplotlib.pyplot as plt

    fmt = plot_format(path)
    fig = plot_make_probability(a)
    try:
        from ...runs.figures import save_figure

        save_figure(fig, path, fmt)
    finally:
        plt.close(fig)
