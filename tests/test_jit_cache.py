"""``kaiser_sim.dd._jit_cache``: a cached kernel that calls a kernel of another
file is recompiled when that file changes (numba alone would load the stale
copy from its cache)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap


def _run(tmp_path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(tmp_path) + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-c", "from pkg.b import g; print(g(1))"], capture_output=True, text=True,
                         env=env, cwd=tmp_path, check=True)
    return out.stdout.strip()


def test_caller_recompiled_when_callee_file_changes(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from numba import njit\n\n\n@njit(cache=True)\ndef f(x):\n    return x + 1\n")
    (pkg / "b.py").write_text(textwrap.dedent("""\
        import os
        from kaiser_sim.dd._jit_cache import depends_on
        depends_on(__file__, os.path.join(os.path.dirname(__file__), "a.py"))
        from numba import njit
        from .a import f


        @njit(cache=True)
        def g(x):
            return f(x) * 10
        """))
    assert _run(tmp_path) == "20"
    assert _run(tmp_path) == "20"  # from the cache
    (pkg / "a.py").write_text("from numba import njit\n\n\n@njit(cache=True)\ndef f(x):\n    return x + 2\n")
    assert _run(tmp_path) == "30"


def _kernel_module(obj) -> str | None:
    """The module that defines ``obj`` if it is a numba kernel (a jitted
    function or an intrinsic), else None."""
    from numba.core.dispatcher import Dispatcher
    from numba.core.extending import _Intrinsic

    if isinstance(obj, Dispatcher):
        return obj.py_func.__module__
    if isinstance(obj, _Intrinsic):
        return getattr(obj._defn, "__module__", None)
    return None


def test_every_cached_kernel_module_registers_its_call_tree():
    """A module whose cached kernels call kernels of other ``kaiser_sim``
    files registers those files with ``depends_on`` -- and, since a cached
    kernel holds compiled copies of its callees' callees too, every file
    those files register (the whole call tree)."""
    import importlib
    import pkgutil

    import kaiser_sim
    from kaiser_sim.dd import _jit_cache

    if not _jit_cache._HOOK:  # pragma: no cover - another numba
        return
    modules = {}
    for info in pkgutil.walk_packages(kaiser_sim.__path__, "kaiser_sim."):
        if not info.name.startswith("kaiser_sim.cli") and info.name != "kaiser_sim.__main__":
            modules[info.name] = importlib.import_module(info.name)

    def callees(mod) -> set[str]:
        """Files of the other kaiser_sim modules whose kernels ``mod`` imports."""
        found = set()
        for obj in vars(mod).values():
            where = _kernel_module(obj)
            if where and where != mod.__name__ and where.startswith("kaiser_sim."):
                found.add(os.path.abspath(sys.modules[where].__file__))
        return found

    missing = {}
    for name, mod in modules.items():
        own = [o for o in vars(mod).values() if _kernel_module(o) == name]
        need = callees(mod)
        if not own or not need:
            continue
        need |= {f for dep in need for f in _jit_cache.registered(dep)}
        lacking = need - set(_jit_cache.registered(mod.__file__))
        if lacking:
            missing[name] = sorted(os.path.relpath(f, os.path.dirname(kaiser_sim.__file__)) for f in lacking)
    assert not missing, f"register these files with _jit_cache.depends_on: {missing}"
