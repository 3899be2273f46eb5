"""Board maps drawn as SVG from board data (a first, simple layout; see draw())."""

from __future__ import annotations

from markupsafe import Markup, escape


def board_svg(pack, board: dict) -> Markup:
    spaces = board.get("spaces", [])
    cols = max(1, int(len(spaces) ** 0.5 + 0.999))
    cell = 40
    rows = (len(spaces) + cols - 1) // cols
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {cols * cell} {rows * cell}" role="img" '
             f'aria-label="{escape(board["props"].get("title", board["id"]))}">']
    for i, name in enumerate(spaces):
        x, y = (i % cols) * cell, (i // cols) * cell
        parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#fff" stroke="#333"/>'
                     f'<text x="{x + cell / 2}" y="{y + cell / 2}" font-size="8" text-anchor="middle">{escape(name)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
