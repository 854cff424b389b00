"""Numba's on-disk cache, made aware of kernels that call kernels of another module.

``@njit(cache=True)`` keys a function's cache on its own source file only.
A kernel of :mod:`kaiser_sim.dd.midtrick` that calls ``dd.search.search``
carries a compiled copy of ``search`` (and of everything ``search`` calls);
after ``dd/search.py`` or ``dd/bounds.py`` changes, numba would still load the
old copy from the cache, silently (numba does not track callees in other
files).  :func:`depends_on` registers, for one source file, the files its
kernels call into, directly or through other kernels (the whole call tree:
a cached kernel holds compiled copies of all of it); the cache stamp of that
file's kernels then covers their contents too, so editing any of them
recompiles the caller.

This uses numba's cache-locator hook (``numba.core.caching``, not a public
API); if numba changes it, :func:`depends_on` does nothing and the old
behaviour (``make clean`` after editing a callee's module) applies.
"""

from __future__ import annotations

import hashlib
import os

try:  # pragma: no cover - depends on numba internals
    from numba.core import caching as _caching

    class _DependentLocator(_caching.InTreeCacheLocator):
        """The in-tree (``__pycache__``) locator, with a stamp that also
        hashes the registered dependency files."""

        deps: dict[str, list[str]] = {}

        def get_source_stamp(self):
            h = hashlib.sha256(repr(super().get_source_stamp()).encode())
            for path in self.deps.get(os.path.abspath(self._py_file), ()):
                try:
                    with open(path, "rb") as f:
                        h.update(f.read())
                except OSError:
                    h.update(b"missing")
            return h.hexdigest()

        @classmethod
        def from_function(cls, py_func, py_file):
            from numba.core import config

            if config.CACHE_DIR or os.path.abspath(py_file) not in cls.deps:
                return None  # numba's usual locators
            return super().from_function(py_func, py_file)

    _HOOK = True
except (ImportError, AttributeError):  # pragma: no cover
    _HOOK = False


def package_files(*names: str) -> list[str]:
    """Absolute paths of files of the ``kaiser_sim`` package, named relative
    to it (``"cards.py"``, ``"dd/search.py"``), for :func:`depends_on`."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # kaiser_sim/, above this dd/
    return [os.path.join(here, *name.split("/")) for name in names]


def registered(py_file: str) -> list[str]:
    """The files :func:`depends_on` registered for ``py_file`` (absolute
    paths; empty when none were, or numba's hook is not available)."""
    return list(_DependentLocator.deps.get(os.path.abspath(py_file), ())) if _HOOK else []


def depends_on(py_file: str, *dep_files: str) -> None:
    """Make the cached kernels of ``py_file`` stale whenever one of
    ``dep_files`` changes.  Call it at the top of ``py_file``, before its
    ``@njit(cache=True)`` definitions."""
    if not _HOOK:
        return
    impl = getattr(_caching, "CacheImpl", None) or getattr(_caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if not isinstance(classes, list):  # pragma: no cover - another numba
        return
    _DependentLocator.deps[os.path.abspath(py_file)] = [os.path.abspath(d) for d in dep_files]
    if _DependentLocator not in classes:
        classes.insert(0, _DependentLocator)
