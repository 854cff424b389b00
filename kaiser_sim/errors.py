"""The one base of kaiser-sim's errors.

Every error the library raises for input it refuses (a hand that cannot be
read, rules that contradict each other, a run that cannot be resumed, an
auction no bidding model makes) is a :class:`KaiserSimError`, a
:class:`ValueError`: a caller catches the whole family with one ``except``,
and the command line turns any of them into its one-line message with exit
status 2.  Two errors are not in the family because they are not about the
input: ``runs.output_dir.OutputError`` (an :class:`OSError`: a file that could
not be written) and ``deal.RedealError`` (a
:class:`RuntimeError`: a dealing loop that cannot end).

Each layer raises its own subclass and lets the errors of the layers below
pass as they are: one is raised again as another class only where the
message says more (which option, which file), and an error from outside the
family (numpy's, pyarrow's, a :class:`json.JSONDecodeError`) is put into it
where it is caught.  ``tests/test_errors.py`` checks that no translation
keeps the message unchanged, except the command line's own.
"""

from __future__ import annotations


class KaiserSimError(ValueError):
    """Input that kaiser-sim refuses; the message says what and why."""


__all__ = ["KaiserSimError"]
