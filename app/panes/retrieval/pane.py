"""Retrieval pane: search the UDHR paragraphs with real sentence embeddings — exact, float16 and
int8 codes, an IVF index — and see what tokenization does to cross-lingual search.

Three :class:`~app.workers.TaskRunner` jobs, each cancelled by a newer one of its kind and by
Cancel: the corpus job (load the encoder, embed each language — cached on disk — and index;
:func:`~app.panes.retrieval.corpus.build_corpus`), the query job (embed the query, search,
measure; :func:`~app.panes.retrieval.search.run_query`) and the synthetic sweep. They are
separate so that typing a query never cancels the embedding: a query searches the
languages embedded so far. The tabs render their results. Run alone:
``python -m app.panes.retrieval``.
"""

from __future__ import annotations

import os
from dataclasses import replace

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFileDialog, QSplitter, QTabWidget, QVBoxLayout, QWidget

from app.panes.base import Pane
from app.panes.retrieval.controls import CorpusPanel
from app.panes.retrieval.corpus import CorpusIndex, build_corpus
from app.panes.retrieval.crosslingual_view import CrossLingualView
from app.panes.retrieval.hits_view import HitsView, stats_html
from app.panes.retrieval.index_view import SOURCE_NOTES, IndexView
from app.panes.retrieval.search import (
    HIT_FIELDS,
    QueryResult,
    hit_rows,
    run_query,
    synthetic_sweep,
    write_hits_json,
)
from app.panes.retrieval.state import (
    CROSS_Y,
    METHODS,
    REFERENCE,
    SWEEP_SOURCES,
    RetrievalState,
    chosen_languages,
    corpus_source,
    embedding_cache_dir,
    list_languages,
    model_folder,
    standin_notice,
    with_,
)
from app.widgets.plot_frame import wrap_plot_titles
from app.widgets.rows_model import write_csv
from app.widgets.text_format import plural
from app.workers import TaskRunner
from app.dialogs.encoders import finder, get_encoder, source_text
from core.data import shared_model_dir
from core.encoder import EncoderLoadError
from core.encoder.sources import companion_encoder, is_multilingual
from core.errors import SubwordScopeError
from core.retrieval import SCORINGS, exact_query_cost, memory_table
from core.retrieval.memory import size_costs

QUERY_DEBOUNCE_MS = 300
LANGUAGES_DEBOUNCE_MS = 700
CROSS_TAB, INDEX_TAB = 1, 2


class RetrievalPane(Pane):
    """Vector search over the UDHR paragraphs and the cross-lingual view.

    Signals
    -------
    sig_corpus_changed(object) : a :class:`CorpusIndex` was rendered (partial or complete).
    sig_hits_changed(object) : a :class:`QueryResult` was rendered.
    sig_sweep_changed() : the recall-vs-nprobe plot was redrawn.
    """

    title = "Retrieval"
    key = "retrieval"
    state_class = RetrievalState

    sig_corpus_changed = Signal(object)
    sig_hits_changed = Signal(object)
    sig_sweep_changed = Signal()

    def __init__(self, settings, parent: QWidget | None = None):
        super().__init__(settings, parent)
        self.state = self.restored_state()
        self.index: CorpusIndex | None = None
        self.result: QueryResult | None = None
        self._encoder, self._encoder_dir = None, None
        self._companion_dir: str | None = None  # the second encoder the last corpus job was given
        self._synthetic = None  # the SyntheticRun on the material's synthetic corpus, once computed
        self._available: list[str] = []
        self._started = False  # the first embedding starts when the pane is first shown
        self._load_error: str | None = None  # why the model asked for did not load (shown until one is asked for again)
        self._stale: set[int] = set()  # tabs whose plots are older than the index
        self._corpus_runner, self._query_runner, self._sweep_runner = (TaskRunner(self) for _ in range(3))
        self._corpus_runner.sig_yielded.connect(self._on_corpus_ready)
        self._corpus_runner.sig_errored.connect(self._on_corpus_failed)
        for runner in (self._corpus_runner, self._sweep_runner):
            runner.sig_progress.connect(lambda f: self.panel.progress.setValue(int(100 * f)))
        self._query_runner.sig_returned.connect(self._on_hits_ready)
        self._query_runner.sig_errored.connect(self._on_query_failed)
        self._sweep_runner.sig_returned.connect(self._on_synthetic_ready)
        self._sweep_runner.sig_errored.connect(self._on_query_failed)
        for runner in (self._corpus_runner, self._query_runner, self._sweep_runner):
            runner.sig_busy_changed.connect(self._on_busy_changed)
        self._query_timer = QTimer(self, singleShot=True, interval=QUERY_DEBOUNCE_MS)
        self._query_timer.timeout.connect(self.search_now)
        self._languages_timer = QTimer(self, singleShot=True, interval=LANGUAGES_DEBOUNCE_MS)
        self._languages_timer.timeout.connect(self.embed_now)
        self._start_timer = QTimer(self, singleShot=True, interval=0)
        self._start_timer.timeout.connect(self.embed_now)
        self._build()
        self._write_widgets()
        self._connect()
        self._shortcuts()
        finder().sig_found.connect(self._on_encoders_found)

    # -- construction --------------------------------------------------------------------
    def _build(self) -> None:
        self.panel = CorpusPanel()
        self.hits_view, self.cross_view, self.index_view = HitsView(), CrossLingualView(), IndexView()
        self.tabs = QTabWidget()
        for view, name in ((self.hits_view, "Search"), (self.cross_view, "Cross-lingual"),
                           (self.index_view, "Index")):
            self.tabs.addTab(view, name)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.panel)
        split.addWidget(self.tabs)
        split.setStretchFactor(1, 1)
        split.setSizes([300, 1100])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split)
        wrap_plot_titles(self)

    def _connect(self) -> None:
        p, h = self.panel, self.hits_view
        for signal, slot in (
                (p.folder_button.clicked, self._on_folder_requested), (p.default_button.clicked, self._on_default_corpus),
                (p.language_list.itemChanged, self._on_languages_changed),
                (p.all_button.clicked, lambda: p.check_only(None)),
                (p.none_button.clicked, lambda: p.check_only({REFERENCE})),
                (p.choose_model_button.clicked, self._on_model_requested),
                (p.source_label.linkActivated, self._on_get_model),
                (p.shared_model_button.clicked, lambda: self.set_model(True, "")),
                (p.standin_button.clicked, lambda: self.set_model(False, "")),
                (p.embed_button.clicked, self.embed_now), (p.cancel_button.clicked, self.cancel),
                (h.query_edit.textChanged, self._on_query_edited), (h.query_edit.returnPressed, self.search_now),
                (h.search_button.clicked, self.search_now), (h.method_box.currentIndexChanged, self._on_search_settings),
                (h.scoring_box.currentIndexChanged, self._on_search_settings),
                (h.nprobe_spin.valueChanged, self._on_search_settings),
                (h.rerank_spin.valueChanged, self._on_search_settings), (h.k_spin.valueChanged, self._on_search_settings),
                (h.sig_export_requested, self._on_export_requested),
                (self.cross_view.k_spin.valueChanged, self._on_cross_changed),
                (self.cross_view.y_box.currentIndexChanged, self._on_cross_changed),
                (self.index_view.source_box.currentIndexChanged, self._on_sweep_source_changed),
                (self.tabs.currentChanged, self._on_tab_changed)):
            signal.connect(slot)
        for frame in (self.cross_view.by_fertility, self.cross_view.by_unknown, self.index_view.sweep,
                      self.index_view.memory_n, self.index_view.memory_100n):
            frame.sig_status_requested.connect(self.sig_status_requested)
        self.cross_view.csv_button.sig_status_requested.connect(self.sig_status_requested)

    def _shortcuts(self) -> None:
        ctx = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for seq, slot in (("F5", self.embed_now), ("Escape", self.cancel), ("Ctrl+Shift+O", self._on_folder_requested),
                          ("Ctrl+Shift+M", self._on_model_requested), ("Ctrl+L", self.hits_view.query_edit.setFocus)):
            QShortcut(QKeySequence(seq), self, slot, context=ctx)
        for i in range(len(METHODS)):
            QShortcut(QKeySequence(f"Alt+{i + 1}"), self, lambda i=i: self.hits_view.method_box.setCurrentIndex(i),
                      context=ctx)

    def _write_widgets(self) -> None:
        """Write the state into the widgets without re-triggering their slots."""
        s, h = self.state, self.hits_view
        with QSignalBlocker(h.query_edit):
            h.query_edit.setText(s.query)
        for box, value in ((h.nprobe_spin, s.nprobe), (h.rerank_spin, s.rerank), (h.k_spin, s.k),
                           (self.cross_view.k_spin, s.cross_k)):
            with QSignalBlocker(box):
                box.setValue(value)
        for box, value, values in ((h.method_box, s.method, METHODS), (h.scoring_box, s.scoring, SCORINGS),
                                   (self.index_view.source_box, s.sweep_source, SWEEP_SOURCES),
                                   (self.cross_view.y_box, s.cross_y, CROSS_Y)):
            with QSignalBlocker(box):
                box.setCurrentIndex(values.index(value))
        with QSignalBlocker(self.tabs):
            self.tabs.setCurrentIndex(min(s.tab, self.tabs.count() - 1))
        h.set_method_enabled(s.method, s.scoring)
        self._refresh_languages()
        self._show_model_label()

    def _refresh_languages(self) -> None:
        src = corpus_source(self.state)
        self._available = list_languages(src.folder)
        self.panel.source_label.setText(src.label)
        with QSignalBlocker(self.panel.language_list):
            self.panel.set_languages(self._available, chosen_languages(self.state, self._available))

    def _found_model(self) -> str | None:
        """The encoder found on disk (data folder or Hugging Face cache), None until the
        scan ends or when there is none."""
        found = finder().default()
        return None if found is None else str(found.path)

    def _show_model_label(self, loading: bool = False) -> None:
        folder = model_folder(self.state, self._found_model())
        text = "Stand-in encoder (no model)" if folder is None else f"Model: {finder().describe(folder).short_name}"
        self.panel.model_label.setText(text + (" — loading…" if loading else ""))
        self.panel.model_label.setToolTip(folder or "No model: a fixed random vector per word")
        self.panel.shared_model_button.setEnabled(shared_model_dir() is not None)
        self.panel.source_label.setText(source_text(folder))

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._started:
            self._started = True
            self._start_timer.start()

    # -- public API ----------------------------------------------------------------------
    def embed_now(self) -> None:
        """Embed and index the chosen languages (cached embeddings are read back)."""
        self._languages_timer.stop()
        self._started = True
        src = corpus_source(self.state)
        languages = chosen_languages(self.state, self._available)
        if not languages:
            self.panel.show_message(f"{src.folder} holds no .txt file: choose a folder of one text per language.")
            return
        folder = model_folder(self.state, self._found_model())
        reuse = self._encoder if self._encoder is not None and self._encoder_dir == folder else None
        self._show_model_label(loading=reuse is None and folder is not None)
        if self.state.use_model:
            self._load_error = None  # a model asked for again: a new attempt
        notice = standin_notice(self.state, self._found_model())
        if self._load_error:  # kept through re-embeds (the encoder scan's end embeds again)
            self.panel.show_message(self._load_error)
        else:
            self.panel.show_message(notice, error=False)
        self.panel.status.setText(f"Embedding {plural(len(languages), 'language')}…")
        self.cross_view.set_placeholder("Embedding the corpus…")
        if self.index is None:
            self.hits_view.clear("Embedding the corpus: hits appear as soon as the first language is in.")
        other = companion_encoder(finder().found or [], folder)
        self._companion_dir = None if other is None else str(other.path)
        self._corpus_runner.submit(build_corpus, str(src.folder), languages, folder, src.label, encoder=reuse,
                                   cache_dir=embedding_cache_dir(), cross_k=self.state.cross_k, notice=notice,
                                   companion=other, companion_multilingual=other is not None and is_multilingual(other))

    def search_now(self) -> None:
        """Search the corpus for the query box's text with the current method."""
        self._query_timer.stop()
        if self.index is None:
            self.hits_view.clear("The corpus is being embedded; the search starts as soon as English is in.")
            return
        if not self.state.query.strip():
            self._query_runner.cancel()
            self.hits_view.clear("Type a query to search the corpus.")
            return
        previous = self.result.query if self.result is not None else None
        self._query_runner.submit(run_query, self.index, with_(self.state), previous)

    def set_query(self, text: str) -> None:
        """Replace the query (searched after the debounce pause)."""
        self.hits_view.query_edit.setText(text)

    def set_corpus_folder(self, folder: str) -> None:
        """Search the ``.txt`` files of ``folder`` ("" for the default corpus); embeds at once."""
        self.state.corpus_folder, self.state.languages = str(folder or ""), []
        self._refresh_languages()
        self.embed_now()

    def set_model(self, use_model: bool, model_dir: str) -> None:
        """Use the encoder in ``model_dir`` ("" = the shared MiniLM) or the stand-in; re-embeds."""
        self.state.use_model, self.state.model_dir = bool(use_model), str(model_dir or "")
        self.embed_now()

    def cancel(self) -> None:
        """Stop every running job of the pane (what is shown stays)."""
        busy = any(r.busy for r in (self._corpus_runner, self._query_runner, self._sweep_runner))
        for runner in (self._corpus_runner, self._query_runner, self._sweep_runner):
            runner.cancel()
        if busy:
            self.panel.show_message("Cancelled. Embeddings finished so far are cached; "
                                    "Embed and index (F5) resumes.", error=False)
            self._show_model_label()
            ix = self.index
            if ix is not None and ix.companion is not None and ix.companion.status == "pending":
                self.index = replace(ix, companion=replace(
                    ix.companion, status="was not compared: cancelled (Embed and index resumes)."))
            self._stale = {CROSS_TAB, INDEX_TAB}  # the tabs show the last index again
            self._render_current_tab()
            self.sig_status_requested.emit("Retrieval: cancelled")

    def show_state(self) -> None:
        """Write the state into the widgets; embed (first time) or search, redraw the tab."""
        self._write_widgets()
        if self.index is None:
            self.embed_now()
        else:
            self._stale.update(range(self.tabs.count()))
            self.search_now()
            self._render_current_tab()

    def save_state(self) -> None:
        self.store_state(self.state)

    def export_hits(self, path: str, fmt: str) -> str | None:
        """Write the shown hits as ``fmt`` ("csv" or "json") to ``path``; returns the path written."""
        if self.result is None:
            return None
        try:
            written = (write_csv(path, HIT_FIELDS, hit_rows(self.result)) if fmt == "csv"
                       else write_hits_json(self.result, path))
        except OSError as exc:
            self.sig_status_requested.emit(f"Export failed: {exc}")
            return None
        self.sig_status_requested.emit(f"Saved {written}")
        return str(written)

    # -- slots ---------------------------------------------------------------------------
    def _on_encoders_found(self, *_) -> None:
        """The encoder scan ended: when the default encoder is asked for and the one found
        differs from the one running, or a second encoder to compare with appeared, embed
        again (the vectors already embedded are read back from the cache)."""
        folder = model_folder(self.state, self._found_model())
        other = companion_encoder(finder().found or [], folder)
        if self._started and ((self.state.use_model and not self.state.model_dir and folder != self._encoder_dir)
                              or (None if other is None else str(other.path)) != self._companion_dir):
            self.embed_now()
        else:
            self._show_model_label(loading=self._corpus_runner.busy and folder != self._encoder_dir)

    def _on_get_model(self, *_) -> None:
        """The stand-in's "Get a real model…" link: the download dialog, then that model."""
        folder = get_encoder(self)
        if folder:
            self.set_model(True, folder)

    def _on_folder_requested(self) -> None:
        start = self.state.corpus_folder or str(corpus_source(self.state).folder)
        path = QFileDialog.getExistingDirectory(self, "Choose a corpus folder (one .txt per language)", start)
        if path:
            self.set_corpus_folder(path)

    def _on_default_corpus(self) -> None:
        self.set_corpus_folder("")

    def _on_model_requested(self) -> None:
        start = self.state.model_dir or str(shared_model_dir() or os.path.expanduser("~"))
        path = QFileDialog.getExistingDirectory(self, "Choose a model folder", start)
        if path:
            self.set_model(True, path)

    def _on_languages_changed(self, *_) -> None:
        self.state.languages = self.panel.checked_languages()
        self._languages_timer.start()

    def _on_query_edited(self, text: str) -> None:
        self.state.query = text
        self._query_timer.start()

    def _on_search_settings(self, *_) -> None:
        h, s = self.hits_view, self.state
        s.method, s.scoring = METHODS[max(0, h.method_box.currentIndex())], SCORINGS[max(0, h.scoring_box.currentIndex())]
        s.nprobe, s.rerank, s.k = h.nprobe_spin.value(), h.rerank_spin.value(), h.k_spin.value()
        h.set_method_enabled(s.method, s.scoring)
        self.search_now()

    def _on_cross_changed(self, *_) -> None:
        self.state.cross_k = self.cross_view.k_spin.value()
        self.state.cross_y = CROSS_Y[max(0, self.cross_view.y_box.currentIndex())]
        self._stale.add(CROSS_TAB)
        self._render_current_tab()

    def _on_sweep_source_changed(self, i: int) -> None:
        self.state.sweep_source = SWEEP_SOURCES[max(0, i)]
        self._render_sweep()

    def _on_tab_changed(self, i: int) -> None:
        self.state.tab = i
        self._render_current_tab()

    def _on_export_requested(self, fmt: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export hits", f"retrieval_hits.{fmt}", f"{fmt.upper()} (*.{fmt})")
        if path:
            self.export_hits(path if path.lower().endswith("." + fmt) else f"{path}.{fmt}", fmt)

    def _on_busy_changed(self, _busy: bool) -> None:
        long_job = self._corpus_runner.busy or self._sweep_runner.busy
        self.panel.progress.setVisible(long_job)
        if not long_job:
            self.panel.progress.setValue(0)
        self.panel.cancel_button.setEnabled(long_job or self._query_runner.busy)

    def _on_corpus_ready(self, index: CorpusIndex) -> None:
        self.index = index
        self._encoder, self._encoder_dir = index.encoder, index.key[1]
        self._show_model_label()
        self._render_corpus()
        self.search_now()
        self.sig_corpus_changed.emit(index)

    def _on_corpus_failed(self, exc: object) -> None:
        text = str(exc) if isinstance(exc, SubwordScopeError) else f"{type(exc).__name__}: {exc}"
        if isinstance(exc, EncoderLoadError) and self.state.use_model:
            self.state.use_model = False  # keep working: the stand-in, with the reason shown
            self._load_error = f"Could not load the model: {text} Using the stand-in encoder."
            self.embed_now()
        else:
            self.panel.show_message(text)
            self._show_model_label()  # never left on "loading…"
            self.panel.status.setText("Not embedded. The hits shown still come from the previous corpus."
                                      if self.index is not None else "Not embedded.")
        self.sig_status_requested.emit(f"Retrieval: {text}")

    def _on_query_failed(self, exc: object) -> None:
        text = str(exc) if isinstance(exc, SubwordScopeError) else f"{type(exc).__name__}: {exc}"
        self.hits_view.clear(f"<span style='color:#b91c1c'>{text}</span>")
        self.sig_status_requested.emit(f"Retrieval: {text}")

    def _on_hits_ready(self, result: QueryResult) -> None:
        self.result = result
        ix, st = self.index, self.state
        self.hits_view.render(result, stats_html(result, ix.n, ix.ivf.nlist, len(ix.sample), st.nprobe, st.rerank))
        self.sig_status_requested.emit(f"Retrieval: {plural(len(result.hits), 'hit')} for “{result.query.text}”")
        self.sig_hits_changed.emit(result)

    def _on_synthetic_ready(self, run) -> None:
        self._synthetic = run
        self._render_sweep()

    # -- rendering -----------------------------------------------------------------------
    def _render_corpus(self) -> None:
        ix = self.index
        done = f"{len(ix.searched)} of {len(chosen_languages(self.state, self._available))}"
        self.panel.status.setText(f"{ix.model_label}: {done} languages embedded, "
                                  f"{plural(ix.n, 'paragraph')} searched ({ix.dim} dims)."
                                  + ("" if ix.complete else " Embedding the rest…")
                                  + (f" Embedding with {ix.companion.label} for the cross-lingual comparison…"
                                     if ix.companion is not None and ix.companion.status == "pending" else ""))
        self.hits_view.nprobe_spin.setMaximum(ix.ivf.nlist)
        self._stale = {CROSS_TAB, INDEX_TAB}
        self._render_current_tab()

    def _render_current_tab(self) -> None:
        """Draw the shown tab's plots from the current index if they are out of date. Hidden
        tabs wait until shown: while the corpus embeds, the GUI thread draws only what is seen."""
        i, ix = self.tabs.currentIndex(), self.index
        if i not in self._stale or ix is None:
            return
        self._stale.discard(i)
        if i == CROSS_TAB and ix.complete:
            self.cross_view.render(ix.cross, self.state.cross_k, self.state.cross_y, model=ix.model_label,
                                   companion=ix.companion)
        elif i == INDEX_TAB:
            self.index_view.show_memory(memory_table(ix.n, ix.dim), ix.n, ix.dim, exact_query_cost(ix.n, ix.dim),
                                        exact_query_cost(100 * ix.n, ix.dim))
            self.index_view.show_sizes(size_costs(ix.n, ix.dim))
            self._render_sweep()

    def _render_sweep(self) -> None:
        if self.state.sweep_source == "synthetic":
            if self._synthetic is None:
                self.index_view.sweep.set_placeholder("Running the sweep on 100,000 × 64 synthetic vectors…")
                if not self._sweep_runner.busy:
                    self._sweep_runner.submit(synthetic_sweep)
                return
            ours, theirs = self._synthetic.ours, self._synthetic.theirs
            self.index_view.show_synthetic(self._synthetic)
        elif self.index is not None and self.index.complete:
            ours, theirs = self.index.sweep, self.index.faiss_sweep
        else:
            self.index_view.show_synthetic(None)
            self.index_view.sweep.set_placeholder("The sweep runs once the corpus is indexed…")
            return
        what = SOURCE_NOTES[self.state.sweep_source]
        if self.state.sweep_source == "corpus":
            what = f"{len(self.index.sample)} {what}"
            self.index_view.show_synthetic(None)
        self.index_view.show_sweep(ours, theirs, what)
        self.sig_sweep_changed.emit()
