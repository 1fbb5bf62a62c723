"""Vector search in numpy: exact top-k, float16/int8 codes, IVF with k-means, recall (SPEC §10).

Also the memory and cost arithmetic of an index, a synthetic clustered corpus for scale
experiments, sentence embeddings of a corpus with the numpy encoder (cached on disk), the
cross-lingual "does the translation come back" measure with the pairing of translated
paragraphs by their article structure, the seed's common scoring mistakes, the spans of a
hit's tokens that occur in the query, and FAISS as the optional reference.

Layer: above :mod:`core.pooling` (it pools encoder outputs); takes an encoder object but does
not import :mod:`core.encoder`.

Every function that holds a ``[Q, N]`` score block keeps it within :data:`MAX_SCORE_BYTES`
(32 MiB) by scoring the queries in chunks.
"""

from core.retrieval._checks import MAX_SCORE_BYTES, RetrievalError
from core.retrieval.articles import ArticleStructure, article_structure
from core.retrieval.clustering import KMeans, kmeans
from core.retrieval.codes import (
    CODE_TYPES,
    dequantize_int8,
    quantize_float16,
    quantize_int8,
)
from core.retrieval.crosslingual import (
    EncoderComparison,
    TranslationRecall,
    compare_encoders,
    crosslingual_table,
    rank_correlation,
    translation_ranks,
    translation_recall,
)
from core.retrieval.embed import POOLINGS, cache_key, default_cache_dir, embed_corpus
from core.retrieval.exact import search, top_k
from core.retrieval.faiss_reference import (
    faiss_flat_search,
    faiss_ivf_index,
    faiss_ivf_sweep,
    faiss_module,
)
from core.retrieval.flat import FlatIndex, rerank
from core.retrieval.highlight import matched_spans
from core.retrieval.ivf import IVFIndex
from core.retrieval.memory import (
    MemoryRow,
    exact_query_cost,
    memory_table,
    vector_bytes,
)
from core.retrieval.mistakes import SCORINGS, scored_search
from core.retrieval.numerals import read_number
from core.retrieval.parallel import ParallelAlignment, align_parallel, aligned_recall
from core.retrieval.recall import IVFSweep, ivf_sweep, recall_at_k
from core.retrieval.synthetic import synthetic_corpus

__all__ = [
    "CODE_TYPES",
    "MAX_SCORE_BYTES",
    "POOLINGS",
    "SCORINGS",
    "ArticleStructure",
    "EncoderComparison",
    "FlatIndex",
    "IVFIndex",
    "IVFSweep",
    "KMeans",
    "MemoryRow",
    "ParallelAlignment",
    "RetrievalError",
    "TranslationRecall",
    "align_parallel",
    "aligned_recall",
    "article_structure",
    "cache_key",
    "compare_encoders",
    "crosslingual_table",
    "default_cache_dir",
    "dequantize_int8",
    "embed_corpus",
    "exact_query_cost",
    "faiss_flat_search",
    "faiss_ivf_index",
    "faiss_ivf_sweep",
    "faiss_module",
    "ivf_sweep",
    "kmeans",
    "matched_spans",
    "memory_table",
    "quantize_float16",
    "quantize_int8",
    "rank_correlation",
    "read_number",
    "recall_at_k",
    "rerank",
    "scored_search",
    "search",
    "synthetic_corpus",
    "top_k",
    "translation_ranks",
    "translation_recall",
    "vector_bytes",
]
