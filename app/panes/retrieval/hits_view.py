"""The Search tab: the query, the method and scoring controls, the hits and their measurements.

The hits table lists rank, score, cosine, language and paragraph; under it every hit's text
is shown with the spans of its tokens that also occur in the query (from
:func:`core.retrieval.matched_spans`), one line per hit, "1. [arb ¶19] " then the text
between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE: the line is left to
right (its head is Latin), the hit text takes the direction of its own first strong letter,
so an Arabic sentence ends at its left, as it should. Beside them, recall@k and latency
against exact search.
Renders a :class:`~app.panes.retrieval.search.QueryResult`; computes nothing.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.panes.retrieval.search import QueryResult
from app.panes.retrieval.state import METHOD_NAMES, METHODS, SCORING_NAMES, RetrievalState
from app.widgets.rows_model import RowsModel
from app.widgets.span_text_view import SpanTextView
from core.retrieval import SCORINGS

HEADER = ("#", "score", "cosine", "language", "paragraph", "text")
FSI, PDI = "\u2068", "\u2069"  # each hit's text is isolated: an Arabic hit reads right to left
PREVIEW_CHARS = 160


def _spin(name: str, tip: str) -> QSpinBox:
    """A spin box for :class:`RetrievalState` field ``name``, with the state's range."""
    box = QSpinBox()
    box.setRange(*RetrievalState.bounds(name))
    box.setToolTip(tip)
    return box


class HitsView(QWidget):
    """Query box, method row, hits table, measurements and the highlighted hit texts.

    Signals
    -------
    sig_export_requested(str) : "csv" or "json" was chosen in the export menu.
    """

    sig_export_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.query_edit = QLineEdit()
        self.query_edit.setPlaceholderText("Type a query, e.g. right to education")
        self.query_edit.setToolTip("Searched as you type (after a short pause); Return searches at once")
        self.search_button = QPushButton("Search")
        self.method_box = QComboBox()
        for m in METHODS:
            self.method_box.addItem(METHOD_NAMES[m], m)
        self.method_box.setToolTip("How the corpus is searched (Alt+1 … Alt+4)")
        self.nprobe_spin = _spin("nprobe", "IVF: cells searched (the nprobe nearest centroids)")
        self.rerank_spin = _spin("rerank", "Re-rank: score the top R of the first stage with full-precision "
                                          "vectors and keep the best k (0: off)")
        self.k_spin = _spin("k", "Hits shown (k)")
        self.scoring_box = QComboBox()
        for s in SCORINGS:
            self.scoring_box.addItem(SCORING_NAMES[s], s)
        self.scoring_box.setToolTip("The seed's common mistakes, made on purpose (exact search)")
        self.export_button = QToolButton()
        self.export_button.setText("Export hits")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        for fmt in ("csv", "json"):
            menu.addAction(f"{fmt.upper()}…", lambda f=fmt: self.sig_export_requested.emit(f))
        self.export_button.setMenu(menu)
        self.export_button.setEnabled(False)
        self.model = RowsModel(HEADER, formatted=True, header_tips=(
            "rank", "score under the chosen scoring", "cosine of the unit vectors", "language (file)",
            "paragraph (line of the file, from 1)", "the paragraph"))
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(len(HEADER) - 1, QHeaderView.ResizeMode.Stretch)
        self.table.setColumnHidden(2, True)  # the cosine beside a mistaken score only
        self.stats = QLabel()
        self.stats.setWordWrap(True)
        self.stats.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.stats.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.stats.setMinimumWidth(260)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #8a5a00;")
        self.note.hide()
        self.text_view = SpanTextView()
        self.text_view.copy_drops = FSI + PDI
        self.text_view.setToolTip("Each hit's text; highlighted: its tokens that also occur in the query")
        self.starts: list[int] = []  # code point where each hit's text starts in the view (after its FSI)
        self.shown_spans: list[tuple[int, int]] = []  # the highlighted spans, in the view's text
        self._layout()

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(QLabel("Query"))
        top.addWidget(self.query_edit, 1)
        top.addWidget(self.search_button)
        rows = QVBoxLayout()  # two rows: the tab fits 1280 px in presentation mode
        for pairs in ((("Method", self.method_box), ("nprobe", self.nprobe_spin), ("re-rank R", self.rerank_spin)),
                      (("k", self.k_spin), ("Scoring", self.scoring_box))):
            row = QHBoxLayout()
            for label, w in pairs:
                row.addWidget(QLabel(label))
                row.addWidget(w)
            row.addStretch(1)
            rows.addLayout(row)
        row.addWidget(self.export_button)
        upper = QSplitter(Qt.Orientation.Horizontal)
        upper.addWidget(self.table)
        upper.addWidget(self.stats)
        upper.setStretchFactor(0, 1)
        upper.setSizes([800, 280])
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(upper)
        box = QWidget()
        blay = QVBoxLayout(box)
        blay.setContentsMargins(0, 0, 0, 0)
        legend = QLabel('Hit texts — <span style="background:#dbeafe">&nbsp;tokens&nbsp;</span>'
                        '<span style="background:#fde7c2">&nbsp;that also occur&nbsp;</span> in the query')
        legend.setProperty("secondary", True)  # folded in presentation mode
        blay.addWidget(legend)
        blay.addWidget(self.text_view, 1)
        split.addWidget(box)
        split.setSizes([330, 330])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addLayout(rows)
        layout.addWidget(self.note)
        layout.addWidget(split, 1)
        self.table.selectionModel().currentRowChanged.connect(lambda cur, _: self.scroll_to_hit(cur.row()))

    def render(self, result: QueryResult, stats_html: str) -> None:
        """Show the hits of ``result``, its measurements (``stats_html``) and its note."""
        mistaken = result.scoring != "cosine"
        rows = [(h.rank, h.score, h.cosine if mistaken else "", h.language, h.line + 1,
                 h.text[:PREVIEW_CHARS] + ("…" if len(h.text) > PREVIEW_CHARS else "")) for h in result.hits]
        self.model.set_rows(rows)
        self.table.setColumnHidden(2, not mistaken)
        self.stats.setText(stats_html)
        self.note.setText(result.note)
        self.note.setVisible(bool(result.note))
        parts, spans, self.starts, pos = [], [], [], 0
        for h in result.hits:
            head = f"{h.rank}. [{h.language} ¶{h.line + 1}] {FSI}"
            self.starts.append(pos + len(head))
            spans += [(s + pos + len(head), e + pos + len(head)) for s, e in h.spans]
            parts.append(head + h.text + PDI)
            pos += len(head) + len(h.text) + len(PDI) + 1
        self.shown_spans = spans
        self.text_view.set_content("\n".join(parts), spans)
        self.export_button.setEnabled(bool(result.hits))

    def clear(self, message: str) -> None:
        """No hits to show (no corpus yet, or an empty query): say why."""
        self.model.set_rows([])
        self.text_view.set_content("", [])
        self.starts, self.shown_spans = [], []
        self.stats.setText(message)
        self.note.hide()
        self.export_button.setEnabled(False)

    def scroll_to_hit(self, row: int) -> None:
        """Bring hit ``row``'s text into view."""
        if 0 <= row < len(self.starts):
            self.text_view.scroll_to(self.starts[row])

    def set_method_enabled(self, method: str, scoring: str) -> None:
        """nprobe only for IVF, re-rank for everything but exact; no method under a mistake."""
        cosine = scoring == "cosine"
        self.method_box.setEnabled(cosine)
        self.nprobe_spin.setEnabled(cosine and method == "ivf")
        self.rerank_spin.setEnabled(cosine and method != "exact")


def stats_html(r: QueryResult, n: int, nlist: int, n_sample: int, nprobe: int, rerank: int) -> str:
    """The measurements beside the hits: the method, recall@k against exact search (this query
    and the sample of ``n_sample`` corpus paragraphs), latency and the share scanned."""
    method = METHOD_NAMES[r.method]
    if r.method == "ivf":
        method += f", nprobe {min(nprobe, nlist)} of {nlist}"
    if r.method != "exact" and rerank:
        method += f", re-rank top {rerank}"
    lines = [f"<b>{method}</b>",
             f"recall@{r.k} vs exact, this query: <b>{r.recall_query:.2f}</b>",
             f"recall@10 over {n_sample} corpus paragraphs as queries: <b>{r.recall_sample:.3f}</b>",
             f"latency: {r.method_ms:.3f} ms (exact {r.exact_ms:.3f} ms, best of 5)",
             f"scanned: {100 * r.scanned:.1f} % of {n:,} vectors"]
    if r.scoring != "cosine":
        lines.insert(0, "<span style='color:#8a5a00'>Scoring mistake on: exact search, method not applied</span>")
    return "<br>".join(lines)
