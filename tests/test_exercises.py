"""Exercise checks: a right, a wrong, a crashing and an unfinished answer for each."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from bleu_lesson import exercises

# Right answers written independently of the library (as a learner would).


def right_tokenize(text):
    return text.lower().split()


def right_ngrams(tokens, n):
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def right_clipped(candidate, references, n):
    cand = Counter(right_ngrams(candidate, n))
    best = Counter()
    for ref in references:
        best |= Counter(right_ngrams(ref, n))
    return sum((cand & best).values()), sum(cand.values())


def right_bp(c, r):
    return 1.0 if c > r else (0.0 if c == 0 else math.exp(1 - r / c))


def right_closest(c, lens):
    return min(lens, key=lambda r: (abs(r - c), r))


def right_geo(ps, ws):
    if any(w > 0 and p == 0 for p, w in zip(ps, ws)):
        return 0.0
    return math.exp(sum(w * math.log(p) for p, w in zip(ps, ws) if w > 0))


def right_bleu(candidate, references):
    cand = candidate.lower().split()
    refs = [r.lower().split() for r in references]
    ps = []
    for n in range(1, 5):
        m, t = right_clipped(cand, refs, n)
        ps.append(m / t if t else 0.0)
    bp = right_bp(len(cand), right_closest(len(cand), [len(r) for r in refs]))
    return bp * right_geo(ps, [0.25] * 4)


def right_corpus(stats):
    hyp = sum(s.hyp_len for s in stats)
    ref = sum(s.ref_len for s in stats)
    matches = [sum(s.matches[n] for s in stats) for n in range(4)]
    totals = [sum(s.totals[n] for s in stats) for n in range(4)]
    ps = [m / t if t else 0.0 for m, t in zip(matches, totals)]
    return right_bp(hyp, ref) * right_geo(ps, [0.25] * 4)


def right_per_segment(streams):
    return [[stream[i] for stream in streams] for i in range(len(streams[0]))]


def right_half_width(scores):
    s = sorted(scores)
    k = len(s) // 40
    return (s[-1 - k] - s[k]) / 2


def mean_of_sentences(stats):  # the classic mistake: average the sentence scores
    from bleu_lesson import BleuOptions, score_stats

    return sum(score_stats(s, BleuOptions(smoothing="none")).score for s in stats) / len(stats)


RIGHT = {"1.1": right_tokenize, "2.1": right_ngrams, "3.1": right_clipped, "4.1": right_bp,
         "4.2": right_closest, "5.1": right_geo, "6.1": right_bleu, "7.1": right_corpus,
         "8.1": right_per_segment, "9.1": right_half_width}
# chapter 10 (its value exercise 10.1, a number and no function, is in test_ch10_exercises.py)
from test_ch10_exercises import right_accuracy, right_strongest  # noqa: E402

RIGHT.update({"10.2": right_accuracy, "10.3": right_strongest})
VALUE_EXERCISES = {"10.1"}
WRONG = {
    "1.1": lambda text: text.split(),                       # forgets lowercasing
    "2.1": lambda tokens, n: [tuple(tokens[i:i + n]) for i in range(len(tokens) - n)],
    "3.1": lambda c, refs, n: (len(right_ngrams(c, n)), len(right_ngrams(c, n))),  # no clipping
    "4.1": lambda c, r: math.exp(1 - r / c) if c else 0.0,  # penalises long candidates too
    "4.2": lambda c, lens: min(lens, key=lambda r: abs(r - c)),  # ties -> first listed
    "5.1": lambda ps, ws: sum(p * w for p, w in zip(ps, ws)),   # arithmetic mean
    "6.1": lambda c, refs: 0.5,
    "7.1": mean_of_sentences,
    "8.1": lambda streams: streams,                      # keeps sacrebleu's layout
    "9.1": lambda scores: (max(scores) - min(scores)) / 2,  # the full range, not 95%
    "10.2": lambda metric, human: 1.0,                     # every pair "right"
    "10.3": lambda metric, human: None,                    # never finds a pair
}


def crash(*args):
    return 1 / 0


def stub(*args):
    raise NotImplementedError


def test_every_exercise_is_covered():
    assert set(RIGHT) | VALUE_EXERCISES == set(exercises.EXERCISES) == set(WRONG) | VALUE_EXERCISES


@pytest.mark.parametrize("ex", sorted(RIGHT))
def test_right_answer_passes(ex, capsys):
    exercises.check(ex, RIGHT[ex])
    out = capsys.readouterr().out
    assert out.startswith(f"✔ 练习 {ex} 通过"), out
    assert exercises.results[ex].status == "pass"


@pytest.mark.parametrize("ex", sorted(WRONG))
def test_wrong_answer_names_input_expected_got(ex, capsys):
    exercises.check(ex, WRONG[ex])
    out = capsys.readouterr().out
    assert f"✘ 练习 {ex} 未通过" in out
    for part in ("输入 (input)", "期望 (expected)", "得到 (got)"):
        assert part in out, out
    assert exercises.results[ex].status == "fail"
    assert "def " not in out and "return" not in out  # never the solution's code


@pytest.mark.parametrize("ex", sorted(RIGHT))
def test_crashing_answer_is_reported_not_raised(ex, capsys):
    exercises.check(ex, crash)
    out = capsys.readouterr().out
    assert "运行出错" in out and "ZeroDivisionError" in out and "输入 (input)" in out
    assert exercises.results[ex].status == "error"


@pytest.mark.parametrize("ex", sorted(RIGHT))
@pytest.mark.parametrize("answer", [stub, ...], ids=["NotImplementedError", "Ellipsis"])
def test_unfinished_answer_is_not_done(ex, answer, capsys):
    exercises.check(ex, answer)
    assert "还没有完成" in capsys.readouterr().out
    assert exercises.results[ex].status == "not-done"


def test_not_a_function(capsys):
    exercises.check("2.1", 42)
    assert "expected a function" in capsys.readouterr().out


def test_unknown_exercise():
    with pytest.raises(ValueError, match="unknown exercise"):
        exercises.check("99.9", right_ngrams)


def test_progress_summarises_a_chapter(capsys):
    exercises.results.clear()
    exercises.check("4.1", right_bp)
    exercises.check("4.2", stub)
    capsys.readouterr()
    exercises.progress("04")
    out = capsys.readouterr().out
    assert "1/2 通过" in out and "练习 4.1" in out and "还没有完成" in out


def test_bool_is_not_accepted_for_a_number(capsys):
    exercises.check("4.2", lambda c, lens: True)
    assert "未通过" in capsys.readouterr().out
