"""Stepped trainers for teaching and auditing how subword vocabularies are learned.

- :mod:`core.training.bpe` — BPE one merge at a time, incremental, with exact undo;
- :mod:`core.training.parity` — BPE over several languages, classic or parity-aware, with
  per-language token counts and their Gini coefficient;
- :mod:`core.training.pair_index` — pair counts, index and candidate ranking, kept up to date;
- :mod:`core.training.wordpiece` — the WordPiece score and side-by-side candidate rankings;
- :mod:`core.training.unigram` — Unigram lattice, Viterbi best path, n-best segmentations;
- :mod:`core.training.unigram_em` — Unigram training by EM with pruning, stepped; sampling a
  segmentation (subword regularisation);
- :mod:`core.training.heldout` — held-out words with token counts and symbols outside the
  alphabet; the word-level baseline with ``[UNK]``;
- :mod:`core.training.corpus` — word counts from the built-in corpus, text, files, folders;
- :mod:`core.training.replay` — replay a real byte-level BPE encoder's merges on a word;
- :mod:`core.training.symbols` — marker styles, initial symbols, tie-break names.
"""

from core.training.bpe import BpeTrainer, Candidate, MergeStep, SegmentStep, WordSegmentation
from core.training.corpus import SENNRICH_CORPUS
from core.training.symbols import MARKERS, TIE_BREAKS, TrainingError
from core.training.unigram import viterbi
from core.training.wordpiece import WordPieceTrainer, compare_candidates

__all__ = [
    "BpeTrainer", "Candidate", "MergeStep", "SegmentStep", "WordSegmentation",
    "SENNRICH_CORPUS", "MARKERS", "TIE_BREAKS", "TrainingError", "viterbi",
    "WordPieceTrainer", "compare_candidates",
]
