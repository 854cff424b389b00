"""``kaiser_sim._jit_cache``: a cached kernel that calls a kernel of another
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
        from kaiser_sim._jit_cache import depends_on
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
