"""kaiser-sim: a Monte Carlo strategy analyzer for the card game Kaiser."""

__version__ = "0.1.0"

from .solver import can_reach, dd_table, solve  # noqa: E402
from .results import load_results  # noqa: E402

__all__ = ["dd_table", "solve", "can_reach", "load_results", "__version__"]
