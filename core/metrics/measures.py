"""What each measure of :data:`core.metrics.table.METRICS` is: its unit and where it comes from.

:data:`TOOLTIPS` (metric key → one paragraph) is what the Compare pane shows on a metric;
:data:`SUMMARY_TOOLTIPS` the same for the per-tokenizer summaries of
:mod:`core.metrics.fairness`. Every key of ``METRICS`` has an entry (a test checks it).
"""

from __future__ import annotations

from core.metrics.ranking import UNKNOWN_LIMIT

_RUST = "Rust et al. 2021, “How Good is Your Tokenizer?”"
_PETROV = ("Petrov et al. 2023, “Language Model Tokenizers Introduce Unfairness Between Languages”: "
           "tokens for the text in language L / tokens for the parallel text in the reference language")
_ADJ = "each unknown token counted as the UTF-8 bytes it covers, each dropped character as its bytes"
_UNK = (f"A cell with more than {UNKNOWN_LIMIT:.0%} of its characters unknown is never ranked "
        "cheapest: its few tokens are lost text.")

#: metric key -> "Label — definition. Unit: … Source: …"
TOOLTIPS: dict[str, str] = {
    "fertility": f"Tokens per word (per grapheme cluster for scripts without spaces). Unit: tokens/word. Source: {_RUST}. {_UNK}",
    "premium": f"Tokenization premium. Unit: ratio (1 = as many tokens as the reference). Source: {_PETROV}. {_UNK}",
    "adjusted_fertility": f"Fertility with {_ADJ}. Unit: tokens/word. Source: {_RUST}; the adjustment is this app's.",
    "adjusted_premium": f"Premium with {_ADJ}. Unit: ratio. Source: {_PETROV}; the adjustment is this app's.",
    "tokens": "Tokens of the whole text, special tokens excluded, each line encoded on its own. Unit: tokens.",
    "adjusted_tokens": f"Tokens with {_ADJ}. Unit: tokens.",
    "tokens_per_character": f"Tokens / code points of the text. Unit: tokens per character (code point). {_UNK}",
    "adjusted_tokens_per_character": f"Tokens per character with {_ADJ}. Unit: tokens per code point.",
    "tokens_per_byte": f"Tokens / UTF-8 bytes of the text (the inverse of compression). Unit: tokens per byte. {_UNK}",
    "tokens_per_word": ("Tokens / whitespace-separated words, only where the script separates words "
                        f"(core.text.scripts.writes_without_spaces). Unit: tokens/word. Source: {_RUST}. {_UNK}"),
    "continued_word_rate": ("Share of the whitespace-separated words cut into two or more tokens, only where "
                            "the script separates words. Unit: share of words (0–1). Source: tokka-bench "
                            "(bgub/tokka-bench), its continued-word (split) rate."),
    "bytes_per_token": "UTF-8 bytes per token (compression; higher is cheaper). Unit: bytes/token.",
    "unknown_share": ("Characters not encoded: inside unknown tokens, or dropped (a letter, number, punctuation "
                      f"mark or symbol in no token) / characters. Unit: share of code points. Over {UNKNOWN_LIMIT:.0%}: "
                      "the cell is marked and never ranked by cost."),
    "unknown_rate": "Unknown tokens / tokens. Unit: share of tokens.",
    "byte_fallback_share": "Characters inside <0xNN> byte pieces / characters. Unit: share of code points.",
    "byte_fallback_rate": "<0xNN> byte pieces / tokens. Unit: share of tokens.",
    "grapheme_cut_share": "Characters inside tokens that start or end inside a grapheme cluster (UAX #29) / characters. Unit: share of code points.",
    "split_character_share": "Characters whose UTF-8 bytes are spread over several tokens / characters. Unit: share of code points.",
    "words": "Whitespace-separated words (grapheme clusters for scripts without spaces). Unit: words.",
    "characters": "Code points of the text. Unit: code points.",
    "utf8_bytes": "Bytes of the text in UTF-8. Unit: bytes.",
    "round_trip_share": "Characters that decode(encode(text)) gives back unchanged / characters. Unit: share of code points.",
}

#: per-tokenizer summary key (:class:`core.metrics.fairness.Fairness`) -> tooltip
SUMMARY_TOOLTIPS: dict[str, str] = {
    "median_premium": f"Median of the languages' premiums. Unit: ratio. Source: {_PETROV}.",
    "gini": ("Gini coefficient of the languages' premiums: G = Σᵢ Σⱼ |xᵢ − xⱼ| / (2 n² x̄); 0 = every language "
             "costs the same, towards 1 = one language carries all the cost. Unit: 0–1. Source: TokEval "
             "(swiss-ai/tokenizer-intrinsic-evals), its Tokenizer Fairness Gini: the standard Gini coefficient "
             "of the per-language token costs (scale-free, so the premiums give the same value as the counts)."),
    "over_2x": "Share of the languages whose premium exceeds 2. Unit: share of languages.",
    "over_4x": "Share of the languages whose premium exceeds 4. Unit: share of languages.",
    "worst": "The ten languages with the highest premium (worst served). Unit: language (premium).",
    "excluded": f"Languages left out of the summary: over {UNKNOWN_LIMIT:.0%} unknown characters, or no premium.",
}
