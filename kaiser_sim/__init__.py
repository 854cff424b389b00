"""kaiser-sim: a Monte Carlo strategy analyzer for the card game Kaiser.

The public names below are imported on first use (PEP 562), so ``import
kaiser_sim`` (and ``kaiser-sim --help``) loads neither numba nor pyarrow.
"""

#: the package version: the one source (pyproject.toml reads it statically)
__version__ = "0.1.0"

#: public name -> the module that defines it
_LAZY = {"dd_table": "dd", "solve": "dd", "can_reach": "dd", "load_results": "runs.results"}

__all__ = ["dd_table", "solve", "can_reach", "load_results", "__version__"]


def __getattr__(name):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
