"""The report as Markdown (``report.md``): charts linked as SVG, tables as Markdown."""

from __future__ import annotations

from ..studies.blocks import Chart, Table, Text
from ..studies.runner import to_markdown
from .content import Report


def render_markdown(report: Report) -> str:
    lines = [f"# {report.title}", ""]
    for si, sec in enumerate(report.sections):
        if si > 0:
            lines += [f"## {sec.title}", ""]
        for b in sec.blocks:
            if isinstance(b, Text):
                if b.style == "heading":
                    lines += ["", f"### {b.text}", ""]
                elif b.style == "bullet":
                    lines += [f"- {b.text}"]
                elif b.style == "term":
                    lines += [f"- **{b.term}**: {b.text}"]
                elif b.style == "note":
                    lines += ["", f"_{b.text}_", ""]
                elif b.style == "box":
                    lines += [""] + [f"> {t}  " for t in b.text.split("\n")] + [""]
                elif b.style == "callout":
                    lines += ["", f"> **{b.text}**", ""]
                else:
                    lines += ["", b.text, ""]
            elif isinstance(b, Table):
                if b.title:
                    lines += ["", f"**{b.title}**", ""]
                lines += ["", to_markdown(b.df).rstrip("\n"), ""]
                note = b.note.rstrip(". ")
                lines += [f"_{note + ('; ' if note else '')}CSV: [tables/{b.name}.csv](tables/{b.name}.csv)_", ""]
            elif isinstance(b, Chart):
                lines += ["", f"![{b.title}]({b.path}.svg)", "", f"_PNG: [{b.path}.png]({b.path}.png)_", ""]
        if si == 0:
            lines += ["", "## Contents", ""] + [f"- {s.title}" for s in report.sections[1:]] + [""]
    text = "\n".join(lines)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip() + "\n"


__all__ = ["render_markdown"]
