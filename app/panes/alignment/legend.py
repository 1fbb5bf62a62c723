"""The legend above the Alignment pane's original span view: what its colours and marks mean.

Public names: :func:`legend_html`.
"""

from __future__ import annotations

from app.widgets.span_segments import ID_COLOURS, SPECIAL_FILL, SPECIAL_OUTLINE, TOKEN_COLOURS

__all__ = ["legend_html"]


def legend_html(by_id: bool) -> str:
    """The legend above the original span view (rich text): how tokens are coloured (by id,
    or alternating), special tokens, marks, the linked span and unknown tokens."""
    if by_id:
        chips = "".join(f'<span style="background:{c}">&nbsp;&nbsp;</span>' for c in ID_COLOURS[:6])
        tokens = f'{chips}&nbsp;token (colour = id)&nbsp; '
    else:
        tokens = (f'<span style="background:{TOKEN_COLOURS[0]}">&nbsp;token&nbsp;</span>'
                  f'<span style="background:{TOKEN_COLOURS[1]}">&nbsp;next token&nbsp;</span> ')
    return (tokens + f'<span style="background:{SPECIAL_FILL}; color:{SPECIAL_OUTLINE}">&nbsp;special&nbsp;</span> '
            '<span style="background:#e9d5ff">&nbsp;shared by tokens&nbsp;</span> '
            '<span style="background:#fecaca">&nbsp;in no token&nbsp;</span> '
            '<span style="background:#facc15">&nbsp;linked&nbsp;</span> '
            '<span style="background:#fee2e2; color:#dc2626">&nbsp;\u25a8 unknown&nbsp;</span>')
