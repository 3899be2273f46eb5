"""Views → documents: HTML with print CSS (Letter or A4), Markdown, and PDF through WeasyPrint."""

from __future__ import annotations

import functools
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

TEMPLATES = Path(__file__).with_name("templates")
PAPERS = {"letter": ("8.5in", "11in"), "a4": ("210mm", "297mm")}
FORMATS = ("html", "md", "pdf")


@functools.cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(enabled_extensions=("html", "html.j2", "svg"), default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = _md_escape
    return env


def _md_escape(value) -> str:
    """Text from content printed in Markdown as text, never as markup or HTML."""
    out = str(value)
    for ch in "\\`*_[]<>#|":
        out = out.replace(ch, "\\" + ch)
    return out


def html(template: str, paper: str = "letter", **context) -> str:
    width, height = PAPERS[paper]
    return environment().get_template(f"{template}.html.j2").render(paper=paper, page_width=width,
                                                                    page_height=height, **context)


def markdown(template: str, **context) -> str:
    return environment().get_template(f"{template}.md.j2").render(**context)


def pdf(document: str) -> bytes:
    """HTML → PDF. WeasyPrint needs Pango from the system (Debian: libpango-1.0-0, libpangoft2-1.0-0)."""
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as err:  # OSError: the Pango libraries are missing
        raise RuntimeError(f"PDF output needs WeasyPrint and the Pango libraries: {err}") from err
    return HTML(string=document, base_url=str(TEMPLATES)).write_pdf()


def document(template: str, fmt: str, paper: str, **context) -> bytes:
    if fmt == "md":
        return markdown(template, **context).encode("utf-8")
    page = html(template, paper, **context)
    return pdf(page) if fmt == "pdf" else page.encode("utf-8")

