"""Output directories that are checked before the work and never left half written.

The commands that write files (``study``, ``report``, ``match --out``,
``hand --plot``) follow three rules:

1. Before any work, :func:`probe` checks that the output directory can be
   created and written, and leaves nothing behind (a directory it had to
   create for the check is removed again).
2. The files go into a hidden staging directory inside the output directory
   (:func:`staged`) and are moved into place only when all of them are
   written; a failure (a full disk, say) removes the staging directory.
3. :func:`removed_on_failure` removes the directories a command created if
   it fails, so a refused or failed command leaves no empty directory.  An
   interrupted run (Ctrl-C) keeps what it simulated: that can be resumed.

A failed write raises :class:`OutputError`, an :class:`OSError` whose message
names the path and the problem.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: prefix of the hidden staging directories (``OUT/.partial-XXXX``)
STAGING_PREFIX = ".partial-"


class OutputError(OSError):
    """Writing an output failed; what had been written was removed.  ``str()``
    is the whole message (path and problem)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "cannot write the output"


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


def missing_top(path) -> Path | None:
    """The outermost directory of ``path`` (itself or a parent) that does not
    exist yet: what creating ``path`` would create.  None if it exists."""
    p = Path(os.path.abspath(path))
    top = None
    while not os.path.lexists(p):
        top = p
        if p.parent == p:
            break
        p = p.parent
    return top


def probe(path) -> None:
    """Raise :class:`OSError` unless the directory ``path`` exists (or can be
    created) and a file can be written in it.  Leaves nothing behind."""
    p = Path(os.path.abspath(path))
    if os.path.lexists(p) and not p.is_dir():
        raise NotADirectoryError(20, "is a file, not a directory", str(p))
    missing = []
    q = p
    while not os.path.lexists(q):
        missing.append(q)
        q = q.parent
    if not q.is_dir():
        raise NotADirectoryError(20, f"{q} is a file, not a directory", str(p))
    made = []
    try:
        for d in reversed(missing):
            d.mkdir()
            made.append(d)
        fd, name = tempfile.mkstemp(prefix=".kaiser-sim-write-test-", dir=p)
        os.close(fd)
        os.unlink(name)
    finally:
        for d in reversed(made):
            try:
                d.rmdir()
            except OSError:
                pass


@contextmanager
def removed_on_failure(*paths) -> Iterator[None]:
    """Remove those of ``paths`` (and the parents created with them) that do
    not exist now, if the block raises an :class:`Exception`.  A
    :class:`KeyboardInterrupt` keeps them (a simulation can be resumed)."""
    tops = [t for t in (missing_top(p) for p in paths) if t is not None]
    try:
        yield
    except Exception:
        for t in tops:
            shutil.rmtree(t, ignore_errors=True)
        raise


def _merge(src: Path, dst: Path) -> None:
    """Move every file under ``src`` to the same place under ``dst`` (files
    there are replaced, others kept)."""
    for root, _dirs, files in os.walk(src):
        rel = Path(root).relative_to(src)
        target = dst / rel
        target.mkdir(parents=True, exist_ok=True)
        for f in files:
            os.replace(Path(root) / f, target / f)


@contextmanager
def staged(out, what: str = "the output") -> Iterator[Path]:
    """Create ``out`` and a hidden staging directory in it; yield the staging
    directory.  When the block ends normally its files move into ``out``
    (same relative paths; existing files of those names are replaced); if it
    raises, the staging directory is removed.  An :class:`OSError` (a full
    disk, no permission) becomes :class:`OutputError` naming ``out``."""
    out = Path(out)
    stage = None
    try:
        out.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
        yield stage
        _merge(stage, out)
    except OutputError:
        raise
    except OSError as e:
        where = f" ({e.filename})" if getattr(e, "filename", None) else ""
        raise OutputError(f"cannot write {what} in {out}: {_reason(e)}{where}; nothing was written") from None
    finally:
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)


def write_file_atomic(path, write) -> None:
    """Call ``write(tmp)`` on a hidden file beside ``path`` and rename it to
    ``path``; on failure the hidden file is removed and :class:`OutputError`
    names ``path``."""
    path = Path(path)
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    try:
        write(tmp)
        os.replace(tmp, path)
    except OSError as e:
        raise OutputError(f"cannot write {path}: {_reason(e)}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


__all__ = ["OutputError", "probe", "missing_top", "removed_on_failure", "staged", "write_file_atomic",
           "STAGING_PREFIX"]
