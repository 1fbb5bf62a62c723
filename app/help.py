"""The Help menu's texts: what each pane shows, and every keyboard shortcut of the window.

The shortcut list is built from the window's own objects each time it is shown — menu
actions (their text), buttons with a shortcut (their text) and the panes' ``QShortcut``\\ s
(their ``whatsThis``, else :data:`SHORTCUT_NOTES`) — so it lists what the keys really do.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

#: pane key -> one paragraph: what the pane shows and how to read it.
PANE_HELP: dict[str, str] = {
    "alignment": (
        "The text you type (top) is normalized by the tokenizer (middle: the normalized text; "
        "the offset map links every normalized character to the original ones) and cut into "
        "tokens (the table). Each token's box in the original text is its span: the characters "
        "the tokenizer says it came from. Hover a token or a character to see it in every "
        "layer; Alt+←/→ steps through the tokens. Unknown tokens and byte-fallback pieces are "
        "outlined; the table's flags mark spans that cut a character cluster and characters no "
        "token covers. Modes: tokenize with the current tokenizer, align a token list pasted "
        "from another system, or give one BIO label per token to see the entities they mark."
    ),
    "merges": (
        "How a BPE vocabulary is learned: each step counts every adjacent pair of symbols in "
        "the corpus and merges the most frequent one into a new symbol; the table shows the "
        "counts and the words as they are cut after each step (Ctrl+→ steps, Ctrl+← takes a "
        "merge back). The other tabs score the same pairs the WordPiece way, find the best "
        "Unigram segmentation of a word, and replay a real tokenizer's merges on your text."
    ),
    "positions": (
        "How a transformer is told where each token is. Sinusoidal encodings add waves of "
        "many wavelengths to each token's vector; RoPE rotates pairs of dimensions by an angle "
        "that grows with the position, so attention sees relative distance; ALiBi subtracts a "
        "penalty that grows with distance from each attention score. The context-extension "
        "view shows what happens past the training length and how scaling stretches it."
    ),
    "pooling": (
        "How a sentence encoder turns its per-token vectors into one vector for the whole "
        "text: the first ([CLS]) vector, the mean or the maximum over the real tokens, or an "
        "attention-weighted mean. The tabs show each token's contribution, how similar texts "
        "come out under each method, why padding must be masked, and how long documents are "
        "cut into overlapping chunks. With no encoder folder a small stand-in model is used."
    ),
    "compare": (
        "Tokenizers across languages on a parallel corpus (the same text in every language; "
        "the app's UDHR sample unless you choose a folder). Each cell is what one tokenizer "
        "costs on one language — tokens per word (fertility), the premium over the reference "
        "language, characters per token — with the share of unknown characters beside it; "
        "cells with more than 1 % unknown are marked and never ranked cheapest. Drill-down "
        "shows one line cut by every tokenizer; Normalization shows what each normalization "
        "form does to each script."
    ),
    "retrieval": (
        "Vector search over UDHR paragraphs embedded with a sentence encoder: type a query and "
        "see the nearest paragraphs, exactly and with compressed codes (float16, int8) or an "
        "IVF index, with recall against the exact search and the memory each needs. The "
        "cross-lingual tab shows how often a paragraph's translation is found, beside how many "
        "tokens the language costs."
    ),
}

#: (pane key, key sequence in portable text) -> what a pane's ``QShortcut`` does, for the
#: shortcuts that carry no ``whatsThis``. ``Alt+#`` stands for Alt+1, Alt+2, ….
SHORTCUT_NOTES: dict[tuple[str, str], str] = {
    ("alignment", "Ctrl+L"): "Align a token list: focus the token list box",
    ("alignment", "Ctrl+Shift+L"): "Labels mode: focus the labels box",
    ("alignment", "Ctrl+T"): "Focus the text",
    ("alignment", "Ctrl+E"): "Export the token table (CSV or JSON)",
    ("alignment", "Alt+Left"): "Previous token",
    ("alignment", "Alt+Right"): "Next token",
    ("alignment", "Ctrl+Shift+C"): "Copy the token ids",
    ("merges", "Ctrl+Right"): "Perform the next merge",
    ("merges", "Ctrl+Left"): "Take back the last merge",
    ("merges", "Ctrl+Home"): "Back to no merges",
    ("positions", "Alt+#"): "Show the n-th view (tab)",
    ("positions", "Ctrl+Shift+E"): "Export every plot of the view",
    ("positions", "Ctrl+Shift+R"): "Reset the controls",
    ("pooling", "Ctrl+Return"): "Encode now",
    ("pooling", "Ctrl+Shift+M"): "Choose an encoder folder",
    ("pooling", "Alt+#"): "Highlight the n-th pooling method",
    ("compare", "Ctrl+Shift+T"): "Add a tokenizer",
    ("compare", "Ctrl+Shift+O"): "Choose the corpus folder",
    ("compare", "F5"): "Compute the comparison",
    ("compare", "Escape"): "Cancel the comparison",
    ("compare", "Ctrl+M"): "Focus the metric choice",
    ("compare", "Delete"): "Remove the selected tokenizer",
    ("retrieval", "F5"): "Embed the corpus now",
    ("retrieval", "Escape"): "Cancel",
    ("retrieval", "Ctrl+Shift+O"): "Choose the corpus folder",
    ("retrieval", "Ctrl+Shift+M"): "Choose an encoder folder",
    ("retrieval", "Ctrl+L"): "Focus the query",
    ("retrieval", "Alt+#"): "Search with the n-th method",
}

UNDESCRIBED = "(no description)"


def _keys(seq: QKeySequence) -> str:
    return seq.toString(QKeySequence.SequenceFormat.PortableText)


def _plain(text: str) -> str:
    """Menu text without its mnemonic ampersand or trailing ellipsis."""
    return re.sub(r"&(?!&)", "", text).rstrip("…").strip()


def shortcut_rows(window: QWidget, panes: dict[str, QWidget]) -> list[tuple[str, str, str]]:
    """Every shortcut of ``window`` as (where, keys, what), window-wide ones first.

    ``where`` is "Everywhere" for the window's actions, else the pane's title; keys are in
    portable text ("Ctrl+Shift+L"). Shortcuts ``Alt+1`` … ``Alt+N`` of one pane with one
    note are folded into one row. Cost: O(number of child objects of the window).
    """
    in_panes = {id(a) for pane in panes.values() for a in pane.findChildren(QAction)}
    rows = [("Everywhere", _keys(a.shortcut()), _plain(a.text())) for a in window.findChildren(QAction)
            if not a.shortcut().isEmpty() and a.text() and id(a) not in in_panes]
    for key, pane in panes.items():
        where = getattr(pane, "title", key)
        found: dict[str, str] = {_keys(a.shortcut()): _plain(a.text()) for a in pane.findChildren(QAction)
                                 if not a.shortcut().isEmpty() and a.text()}
        for sc in pane.findChildren(QShortcut):
            keys = _keys(sc.key())
            if keys:
                found.setdefault(keys, sc.whatsThis() or _note(key, keys))
        for button in pane.findChildren(QAbstractButton):
            keys = _keys(button.shortcut())
            if keys and button.text():
                found.setdefault(keys, _plain(button.text()))
        rows += [(where, keys, what) for keys, what in _fold_numbered(found)]
    return rows


def _note(pane_key: str, keys: str) -> str:
    """The :data:`SHORTCUT_NOTES` entry for ``keys`` (portable text, e.g. "Esc")."""
    if re.fullmatch(r"Alt\+\d", keys) and (pane_key, "Alt+#") in SHORTCUT_NOTES:
        return SHORTCUT_NOTES[(pane_key, "Alt+#")]
    for (key, written), note in SHORTCUT_NOTES.items():
        if key == pane_key and written != "Alt+#" and _keys(QKeySequence(written)) == keys:
            return note
    return UNDESCRIBED


def _fold_numbered(found: dict[str, str]) -> list[tuple[str, str]]:
    """Fold Alt+1 … Alt+N with the same description into one row. O(len(found))."""
    numbered = sorted(k for k in found if re.fullmatch(r"Alt\+\d", k))
    same = len({found[k] for k in numbered}) == 1
    out = [(k, v) for k, v in found.items() if not (same and len(numbered) > 1 and k in numbered)]
    if same and len(numbered) > 1:
        out.append((f"{numbered[0]} … {numbered[-1]}", found[numbered[0]]))
    return out


def show_shortcuts(window: QWidget, panes: dict[str, QWidget]) -> QDialog:
    """Open (non-modal) the Keyboard Shortcuts dialog; return it."""
    rows = shortcut_rows(window, panes)
    dialog = QDialog(window)
    dialog.setWindowTitle("Keyboard Shortcuts")
    table = QTableWidget(len(rows), 3, dialog)
    table.setObjectName("shortcuts")
    table.setHorizontalHeaderLabels(["Where", "Keys", "What"])
    table.verticalHeader().hide()
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            table.setItem(r, c, QTableWidgetItem(QKeySequence(text).toString(QKeySequence.SequenceFormat.NativeText)
                                                 if c == 1 and "…" not in text else text))
    table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
    table.resizeColumnsToContents()
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.close)
    layout = QVBoxLayout(dialog)
    layout.addWidget(table)
    layout.addWidget(buttons)
    dialog.resize(620, 560)
    dialog.show()
    return dialog


def show_pane_help(window: QWidget, key: str, title: str) -> QMessageBox:
    """Open (non-modal) the "What am I looking at?" box for the pane ``key``; return it."""
    box = QMessageBox(QMessageBox.Icon.Information, f"{title}: what am I looking at?",
                      PANE_HELP.get(key, "No description for this pane yet."),
                      QMessageBox.StandardButton.Close, window)
    box.setModal(False)
    box.show()
    return box
