"""The alignment pane's widgets and layout, all made here (no behaviour: the pane and its
extras, :mod:`app.panes.alignment.extras`, wire them up)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.align.modes import MODES, NORMALIZER_FORMS, SCHEME_MARKERS, SCHEME_NAMES
from app.panes.alignment.chat_panel import ChatPanel
from app.panes.alignment.decoded import DecodedView
from app.panes.alignment.picker import TokenizerPicker
from app.panes.alignment.legend import legend_html
from app.panes.alignment.side_by_side import SideBySidePanel
from app.widgets.pipeline_row import PipelineRow
from app.panes.alignment.token_ids import TokenIdsView
from app.widgets.info_strip import InfoStrip
from app.widgets.layout_boundary import LayoutBoundary
from app.widgets.long_line_editor import LongLineEditor
from app.widgets.text_markers import TextMarkers
from app.widgets.offset_map_view import OffsetMapView
from app.widgets.span_text_view import SpanTextView
from app.widgets.token_table import TokenTableView
from app.widgets.wrap_guard import WrapGuard

EDITOR_PLACEHOLDER = "Type or paste text here"

BANNER_STYLES = {
    "error": "background:#fee2e2; color:#7f1d1d; border:1px solid #fca5a5;",
    "info": "background:#e0f2fe; color:#0c4a6e; border:1px solid #7dd3fc;",
}


SCHEMES = {"auto": "Scheme: auto"} | {
    key: f"{name} ({SCHEME_MARKERS[key]})" if key in SCHEME_MARKERS else f"{name} strings"
    for key, name in SCHEME_NAMES.items()
}
SCHEME_TIP = (
    "How the pasted tokens mark word pieces. Auto: ## → WordPiece, ▁ → SentencePiece, Ġ/Ċ → "
    "byte-level; a list without markers is tried as surface strings (raw, cased substrings of "
    "the text) and then as WordPiece.\nThe normalizer options apply to WordPiece tokens; "
    "surface, SentencePiece and byte-level tokens are matched against the text as it is, "
    "unless you change a normalizer option (choose WordPiece to match a lowercased list "
    "against the default teaching normalizer)."
)


@dataclass
class AlignmentWidgets:
    """Every widget of the pane, by role (made by :func:`build`)."""

    banner: QLabel
    mode: QComboBox
    tokenizer: QLabel
    form: QComboBox
    strip_accents: QCheckBox
    lowercase: QCheckBox
    collapse: QCheckBox
    teaching_norm: QWidget  # the teaching normalizer's controls (token lists, teaching vocabulary)
    pipeline: PipelineRow  # the loaded tokenizer's own pipeline, in their place
    export: QToolButton
    editor: LongLineEditor  # a long line is held as pieces: read it with .text()
    input_box: QWidget
    input_title: QLabel
    tokens_input: LongLineEditor
    labels_input: LongLineEditor
    repair: QCheckBox
    scheme: QComboBox
    original: SpanTextView
    normalized: SpanTextView
    table: TokenTableView
    offset_map: OffsetMapView
    entities_box: QWidget
    entities: QListWidget
    changes_only: QCheckBox
    status: QLabel
    count: QLabel
    legend: QLabel
    derived: QCheckBox
    colour_by_id: QCheckBox  # tokens coloured by id, or alternating
    parse_special: QCheckBox
    decoded: DecodedView
    picker: TokenizerPicker  # the toolbar's tokenizer choice
    special_tokens: QCheckBox  # encode with the template's special tokens (badges, token ids)
    whitespace: QCheckBox  # paint markers over whitespace
    limits: QLabel  # the tokenizer file's truncation / padding line
    strip: InfoStrip  # what the mouse is over (instead of tooltips over the text)
    ids: TokenIdsView
    side: SideBySidePanel
    markers: TextMarkers  # over the original view: zero-width characters, whitespace, specials
    norm_markers: TextMarkers  # over the normalized view
    busy_bar: QProgressBar  # the busy row beside the status line, shown while a computation runs long
    busy_label: QLabel
    cancel_button: QPushButton
    chat_toggle: QToolButton  # Chat mode on / off
    chat: ChatPanel  # Chat mode's messages editor, above the text


def _titled(title: str, widget: QWidget, tip: str, extra: QWidget | None = None,
            middle: QWidget | None = None) -> tuple[QWidget, QLabel]:
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 4, 0, 0)
    lay.setSpacing(3)
    head = QHBoxLayout()
    label = QLabel(f"<b>{title}</b>")
    label.setToolTip(tip)
    head.addWidget(label)
    if middle is not None:
        head.addSpacing(12)
        head.addWidget(middle, 1)
    else:
        head.addStretch(1)
    if extra is not None:
        head.addWidget(extra)
    lay.addLayout(head)
    lay.addWidget(widget, 1)
    widget.setToolTip(tip)
    return box, label


def _controls(w: dict) -> QVBoxLayout:
    """Two rows: mode, tokenizer and special-token parsing; then either the teaching
    normalizer's controls or the loaded tokenizer's own pipeline (the pane shows one)."""
    rows = QVBoxLayout()
    rows.setSpacing(4)
    row = QHBoxLayout()
    row.setSpacing(8)
    rows.addLayout(row)
    w["mode"] = QComboBox()
    for key, name in MODES.items():
        w["mode"].addItem(name, key)
    w["mode"].setToolTip("Tokenize with the chosen tokenizer, align a pasted token list, or "
                         "lift pasted BIO labels to entity spans")
    w["tokenizer"] = QLabel()
    w["tokenizer"].setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    w["tokenizer"].setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    w["tokenizer"].setMinimumWidth(120)
    w["form"] = QComboBox()
    w["form"].addItems(NORMALIZER_FORMS)
    w["form"].setToolTip("Unicode normalization form of the teaching normalizer")
    w["strip_accents"] = QCheckBox("Strip accents")
    w["strip_accents"].setToolTip("Remove every nonspacing mark (category Mn); its span folds into its letter")
    w["lowercase"] = QCheckBox("Lowercase")
    w["lowercase"].setToolTip("Full case mapping (İ becomes i + combining dot, ß stays ß)")
    w["collapse"] = QCheckBox("Collapse spaces")
    w["collapse"].setToolTip("Runs of whitespace become one space; leading and trailing whitespace is dropped")
    w["export"] = QToolButton()
    w["export"].setText("Export…")
    w["export"].setToolTip("Write the token table as CSV or JSON with code-point, UTF-16 and UTF-8 offsets (Ctrl+E)")
    row.addWidget(QLabel("Mode:"))
    row.addWidget(w["mode"])
    row.addSpacing(12)
    w["picker"] = TokenizerPicker()
    row.addWidget(QLabel("Tokenizer:"))
    row.addWidget(w["picker"])
    row.addWidget(w["tokenizer"], 1)
    w["parse_special"] = QCheckBox("Parse special tokens")
    w["parse_special"].setToolTip("Checked: special-token strings in the text (<|im_start|>, <|eot_id|>) become "
                                  "their special ids. Unchecked: they are encoded as plain text, as "
                                  "tokenizers does with encode_special_tokens=True")
    row.addWidget(w["parse_special"])
    w["teaching_norm"] = QWidget()
    norm_row = QHBoxLayout(w["teaching_norm"])
    norm_row.setContentsMargins(0, 0, 0, 0)
    norm_row.setSpacing(8)
    norm_row.addWidget(QLabel("Teaching normalizer:"))
    for name in ("form", "strip_accents", "lowercase", "collapse"):
        norm_row.addWidget(w[name])
    norm_row.addStretch(1)
    w["pipeline"] = PipelineRow()
    w["pipeline"].hide()
    rows.addWidget(w["teaching_norm"])
    rows.addWidget(w["pipeline"])
    return rows


def _inputs(w: dict) -> QWidget:
    w["tokens_input"] = LongLineEditor()
    w["tokens_input"].setPlaceholderText('Paste tokens: ["zoe", "flew", …] or zoe flew to …')
    w["tokens_input"].setToolTip("A token list from any system, as a JSON list or separated by whitespace (Ctrl+L)")
    w["labels_input"] = LongLineEditor()
    w["labels_input"].setPlaceholderText("One BIO label per token: B-PER O O B-LOC …")
    w["labels_input"].setToolTip("One label per token of the current tokenization: O, B-X or I-X (Ctrl+Shift+L)")
    w["repair"] = QCheckBox("Repair I- without B-")
    w["repair"].setToolTip("Checked: an I-X with no open X entity opens one (the usual repair). "
                           "Unchecked: strict, such an I-X is treated as O")
    w["scheme"] = QComboBox()
    for key, name in SCHEMES.items():
        w["scheme"].addItem(name, key)
    w["scheme"].setToolTip(SCHEME_TIP)
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 4, 0, 0)
    lay.setSpacing(3)
    head = QHBoxLayout()
    w["input_title"] = QLabel()
    head.addWidget(w["input_title"])
    head.addStretch(1)
    head.addWidget(w["scheme"])
    head.addWidget(w["repair"])
    lay.addLayout(head)
    for name in ("tokens_input", "labels_input"):
        w[name].setMinimumHeight(48)
        lay.addWidget(w[name])
    w["input_box"] = box
    return box


def _status_row(pane: QWidget, w: dict) -> QWidget:
    """The status line with a busy bar, what is being computed, and Cancel, shown only while
    a computation runs long; their space is kept while hidden, so showing them moves nothing
    (a relayout of the views costs as much as their text). The status line changes with
    every result: its layout requests stop at a :class:`LayoutBoundary`."""
    busy_row = QWidget(pane)
    row = QHBoxLayout(busy_row)
    row.setContentsMargins(0, 0, 0, 0)
    row.addWidget(w["status"], 1)
    w["busy_bar"] = QProgressBar()
    w["busy_bar"].setRange(0, 0)  # busy, no fraction known
    w["busy_bar"].setMaximumSize(120, 14)
    w["busy_label"] = QLabel()
    w["cancel_button"] = QPushButton("Cancel")
    w["cancel_button"].setToolTip("Stop this computation; the tokens shown stay as they are")
    for name in ("busy_bar", "busy_label", "cancel_button"):
        policy = w[name].sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        w[name].setSizePolicy(policy)
        row.addWidget(w[name])
        w[name].hide()
    return LayoutBoundary(busy_row, pane)


def build(pane: QWidget) -> AlignmentWidgets:
    """Create the pane's widgets and lay them out on ``pane``."""
    w: dict = {}
    root = QVBoxLayout(pane)
    root.setContentsMargins(8, 6, 8, 4)
    root.setSpacing(6)
    w["banner"] = QLabel()
    w["banner"].setWordWrap(True)
    w["banner"].setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    w["banner"].hide()
    root.addLayout(_controls(w))
    root.addWidget(w["banner"])

    w["editor"] = LongLineEditor()
    w["editor"].setPlaceholderText(EDITOR_PLACEHOLDER)
    w["original"] = SpanTextView()
    w["normalized"] = SpanTextView()
    w["table"] = TokenTableView()
    w["offset_map"] = OffsetMapView()
    w["entities"] = QListWidget()
    w["entities"].setToolTip("Entity spans from the labels (code points of the original text)")
    w["legend"] = QLabel(legend_html(True))
    w["legend"].setWordWrap(True)  # wraps in a narrow window instead of widening the pane
    w["legend"].setMinimumWidth(260)  # at most two lines
    w["legend"].setProperty("secondary", True)  # folded in presentation mode
    w["legend"].setToolTip("How the original text is drawn: token colours (by id: a repeated token has the "
                           "same colour; or alternating), special tokens as grey chips with a violet outline, "
                           "characters shared by several tokens, non-space characters no token covers, "
                           "tokens that are the model's unknown token or a byte-fallback piece (red frame, "
                           "hatched); a magenta \u25be marks a token boundary inside a grapheme cluster")

    w["derived"] = QCheckBox("Derived spans")
    w["derived"].setToolTip("Draw each token at the span its own content occupies (core's derived "
                            "spans) instead of the tokenizer's span; enabled where they differ")
    spans_extra = QWidget()
    extra_row = QHBoxLayout(spans_extra)
    extra_row.setContentsMargins(0, 0, 0, 0)
    toggles = QGridLayout()  # two by two: the left column's minimum width stays under 700 px
    toggles.setContentsMargins(0, 0, 0, 0)
    toggles.setHorizontalSpacing(8)
    toggles.setVerticalSpacing(0)
    w["colour_by_id"] = QCheckBox("Colour by id")
    w["colour_by_id"].setToolTip("Checked: each token's colour comes from its id, so a repeated token is "
                                 "recognisable. Unchecked: two alternating colours")
    extra_row.addWidget(w["legend"], 1)
    extra_row.addLayout(toggles)
    w["special_tokens"] = QCheckBox("Special tokens")
    w["special_tokens"].setToolTip("Encode with the special tokens the tokenizer adds ([CLS] … [SEP]); they are "
                                   "drawn as badges at their positions and listed in the token ids")
    w["whitespace"] = QCheckBox("Show whitespace")
    w["whitespace"].setToolTip("Paint · over spaces, → over tabs and ¶ at line ends (the text is unchanged)")
    for k, name in enumerate(("colour_by_id", "special_tokens", "derived", "whitespace")):
        toggles.addWidget(w[name], k % 2, k // 2)

    left = QSplitter(Qt.Orientation.Vertical)
    w["chat_toggle"] = QToolButton()
    w["chat_toggle"].setText("Chat…")
    w["chat_toggle"].setCheckable(True)
    w["chat_toggle"].setToolTip("Chat mode: edit a message list; the tokenizer's own chat template "
                                "(its tokenizer_config.json) renders it into this text")
    w["count"] = QLabel()
    w["count"].setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)  # no relayout per result
    w["count"].setToolTip("Tokens of the text, its characters (code points), its UTF-8 bytes and tokens "
                          "per word (per character for a script written without spaces)")
    editor_box, _ = _titled("Original text (edit)", w["editor"],
                            "Type or paste; tokens update as you type (Ctrl+T to focus)", w["chat_toggle"],
                            middle=w["count"])  # the large count above the views, on the text's title
    left.addWidget(editor_box)
    left.addWidget(_inputs(w))
    spans_box, _ = _titled("Original text — token spans", w["original"],
                           "Each token's original span; hover or select to see the linked token, "
                           "normalized characters and offset map", spans_extra)
    left.addWidget(spans_box)
    norm_box, _ = _titled("Normalized text", w["normalized"],
                          "The text the tokenizer's model sees, with each token's normalized span")
    left.addWidget(norm_box)
    w["decoded"] = DecodedView()
    left.addWidget(w["decoded"])
    w["side"] = SideBySidePanel()
    left.addWidget(w["side"])
    w["chat"] = ChatPanel()
    w["chat"].hide()
    left.insertWidget(0, w["chat"])  # shown in Chat mode only
    # shares of the column (the splitter keeps them as the window resizes): at 1280×720 the
    # text gets 4 lines, the spans 4, the round trip 2 + 2, side by side 2 rows
    left.setSizes([0, 95, 80, 95, 75, 125, 125])

    right = QSplitter(Qt.Orientation.Vertical)
    table_box, _ = _titled("Tokens", w["table"], "One row per token; arrow keys or Alt+Left/Right step "
                           "through them", w["export"])
    right.addWidget(table_box)
    w["changes_only"] = QCheckBox("Changes only")
    w["changes_only"].setChecked(True)
    w["changes_only"].setToolTip("List only the characters normalization changed, dropped or regrouped")
    map_box, _ = _titled("Offset map of the selection", w["offset_map"], w["offset_map"].toolTip(),
                         w["changes_only"])
    right.addWidget(map_box)
    w["entities_box"], _ = _titled("Entities", w["entities"], w["entities"].toolTip())
    right.addWidget(w["entities_box"])
    right.setSizes([380, 200, 110])
    w["ids"] = TokenIdsView()
    right.insertWidget(1, w["ids"])  # below the table, after the sizes

    main = QSplitter(Qt.Orientation.Horizontal)
    main.addWidget(left)
    main.addWidget(right)
    main.setSizes([880, 400])  # the text views take the larger share
    root.addWidget(main, 1)
    w["limits"] = QLabel()
    w["limits"].setStyleSheet("color:#4b5563")
    w["limits"].setToolTip("What the tokenizer file says about truncation and padding; "
                           "this view encodes the whole text and pads nothing")
    w["limits"].hide()
    root.addWidget(w["limits"])
    w["strip"] = InfoStrip()
    root.addWidget(w["strip"])
    w["status"] = QLabel()
    w["status"].setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    w["status"].setWordWrap(True)  # a long status (font notes, unknowns) wraps, never cut off
    w["status"].setToolTip("Counts for the text shown, and how much of it is highlighted")
    root.addWidget(_status_row(pane, w))
    w["markers"], w["norm_markers"] = TextMarkers(w["original"]), TextMarkers(w["normalized"])
    for view in (w["original"], w["normalized"], w["editor"]):
        font = QFont(view.font())
        font.setPointSizeF(font.pointSizeF() * 1.15)
        view.setFont(font)
        view.setMinimumHeight(view.fontMetrics().lineSpacing() + 14)  # one line when squeezed: every mode fits 1280×720
    for editor in (w["editor"], w["tokens_input"], w["labels_input"]):
        WrapGuard(editor)  # a line of 5,000 "a"s or more wraps anywhere: laid out in linear time
    return AlignmentWidgets(**w)
