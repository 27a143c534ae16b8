"""Corpus BLEU of every WMT22 zh-en system, bleu_lesson against sacrebleu, in one run.

    BLEU_LESSON_WMT22_DIR=../shared/data/wmt22 python benchmarks/bench_corpus.py [--repeat 3]

Two modes, each timed end to end (build the scorer with both references, then score
all systems), best of ``--repeat`` runs with fresh scorers every run:

- ``tokenized``: text tokenized with 13a beforehand, tokenizer "none" on both sides, so
  only the counting, clipping and scoring is timed, the part bleu_lesson writes itself;
- ``raw 13a``: raw text, 13a inside the timing, each side with its own 13a (bleu_lesson's
  ``tok13a``, tested token for token against sacrebleu's). Both sides' line caches
  (sacrebleu's two lru_caches, bleu_lesson's one) are emptied before every run.

Both sides get what they offer for this case: sacrebleu's ``BLEU(references=…)`` caches
the references; ``BleuScorer`` caches the references and, on a test set this size, counts
with its numpy engine (``engine="auto"``, the default). The standard-library engine
(``engine="python"``: the chapters' own functions, exactly as they are shown) is timed
in the same run too. Every system is scored
once, so the scorer's memo of whole systems never helps either engine here.

Prints the times, the ratio (sacrebleu / bleu_lesson) and the largest score difference
over all systems, for each engine, and the goal: numpy engine 3x on tokenized text (in
this run, in-process; bench_fresh.py times fresh processes, imports included). The
standard-library engine is written to be read, not to be fast, so it has no speed goal:
on tokenized text its speed is printed beside NLTK's ``corpus_bleu`` (the other plain,
readable implementation; same tokens, closest reference length, no smoothing needed on
these systems) as well as sacrebleu's. Its score differs by about 1e-4 on systems with
segments shorter than four tokens: NLTK's ``modified_precision`` counts at least one n-gram
per segment and order (``max(1, t_n)``) where sacrebleu and the paper count t_n.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

from _goals import verdict
from _wmt22 import add_data_argument, wmt22_folder
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

from bleu_lesson import BleuScorer, references_from_streams
from bleu_lesson.core.tokenizers import _tokens_13a

logging.getLogger("sacrebleu").setLevel(logging.ERROR)  # its "looks tokenized" warning


def read(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def load(folder: Path):
    ref_a = read(folder / "generaltest2022.zh-en.ref.A.en")
    ref_b = read(folder / "generaltest2022.zh-en.ref.B.en")
    systems = {
        p.name.split(".hyp.")[1][: -len(".en")]: read(p)
        for p in sorted(folder.glob("generaltest2022.zh-en.hyp.*.en"))
    }
    return ref_a, ref_b, systems


def fresh_caches() -> None:
    """Both 13a tokenizers memoize lines (sacrebleu: lru_caches on Tokenizer13a and on its
    TokenizerRegexp step; bleu_lesson: one on its 13a); empty them before every timed run
    so that neither side profits from an earlier run."""
    Tokenizer13a.__call__.cache_clear()
    TokenizerRegexp.__call__.cache_clear()
    _tokens_13a.cache_clear()


def run_ours(ref_a, ref_b, systems, tokenizer, engine="auto"):
    fresh_caches()
    start = time.perf_counter()
    scorer = BleuScorer(references_from_streams(ref_a, ref_b), tokenizer=tokenizer,
                        engine=engine)
    scores = {name: scorer.score(hyps).score for name, hyps in systems.items()}
    return time.perf_counter() - start, scores, scorer.engine


def run_sacrebleu(ref_a, ref_b, systems, tokenizer):
    fresh_caches()
    start = time.perf_counter()
    metric = BLEU(tokenize=tokenizer, references=[ref_a, ref_b])
    scores = {name: metric.corpus_score(hyps, None).score / 100 for name, hyps in systems.items()}
    return time.perf_counter() - start, scores


def run_nltk(ref_a, ref_b, systems):
    """NLTK's corpus_bleu on text already tokenized (split on spaces inside the timing)."""
    start = time.perf_counter()
    refs = [[a.split(), b.split()] for a, b in zip(ref_a, ref_b, strict=True)]
    scores = {name: nltk_corpus_bleu(refs, [h.split() for h in hyps])
              for name, hyps in systems.items()}
    return time.perf_counter() - start, scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_data_argument(parser)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    args.data = str(wmt22_folder(args.data, "bench_corpus"))
    ref_a, ref_b, systems = load(Path(args.data))
    n_seg = len(ref_a)
    print(f"WMT22 zh-en: {len(systems)} systems x {n_seg} segments, references A and B; "
          f"best of {args.repeat} runs")

    tok = Tokenizer13a()
    pretok = (
        [tok(x.rstrip()) for x in ref_a],
        [tok(x.rstrip()) for x in ref_b],
        {name: [tok(x.rstrip()) for x in hyps] for name, hyps in systems.items()},
    )
    modes = [("tokenized (tokenizer none)", pretok, "none"),
             ("raw text (tokenizer 13a)", (ref_a, ref_b, systems), "13a")]
    engines = ("auto", "python")
    goals = {("none", "numpy"): 3.0}  # issue 19: numpy engine >= 3x sacrebleu, tokenized
    print(f"{'mode':28} {'engine':8} {'bleu_lesson':>12} {'sacrebleu':>10} {'ratio':>6} "
          f"{'goal':>5} {'max |diff|':>11}")
    for label, data, tokenizer in modes:
        ours_t = {engine: [] for engine in engines}
        ours, used = {}, {}
        theirs_t = []
        for _ in range(args.repeat):
            # interleaved, so every side sees the same machine load
            for engine in engines:
                t, ours[engine], used[engine] = run_ours(*data, tokenizer, engine)
                ours_t[engine].append(t)
            t, theirs = run_sacrebleu(*data, tokenizer)
            theirs_t.append(t)
        for engine in engines:
            diff = max(abs(ours[engine][k] - theirs[k]) for k in systems)
            best = min(ours_t[engine])
            goal = goals.get((tokenizer, used[engine]))
            ratio = min(theirs_t) / best
            mark = f"{goal:.1f}x" if goal else ""
            end = f" {verdict(ratio >= goal and diff < 1e-9)}" if goal else ""
            print(f"{label:28} {used[engine]:8} {best:11.3f}s {min(theirs_t):9.3f}s "
                  f"{ratio:5.2f}x {mark:>5} {diff:11.1e}{end}")
        if tokenizer == "none":
            nltk_t = []
            for _ in range(args.repeat):
                t, nltk_scores = run_nltk(*data)
                nltk_t.append(t)
            diff = max(abs(ours["python"][k] - nltk_scores[k]) for k in systems)
            best = min(ours_t["python"])
            print(f"{'  the same, beside NLTK':28} {'python':8} {best:11.3f}s "
                  f"{min(nltk_t):9.3f}s {min(nltk_t) / best:5.2f}x {'':>5} {diff:11.1e}"
                  "   (NLTK's corpus_bleu in the sacrebleu column)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
