"""The taught BLEU, written for a learner to read: tokenizers, n-grams, clipping, the brevity
penalty, smoothing, the additive statistics, the scorer and its two engines (``python`` is
exactly the functions the chapters show; ``numpy`` counts the same, fast), and the seed's own
four functions. Standard library only; imports nothing from the rooms above it."""
