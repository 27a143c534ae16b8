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


# Constructed answers for the judged tasks (issue 13). 6.2's numbers were measured with
# sacrebleu: 50.81 with "a b c d", 43.01 once the unrelated 7-word reference is added.
LOWERING = ("a b c d e f", ["a b c d"], "u v w x y z q")
EXTREMES = {"reference": "The meeting was postponed because the chairman fell ill.",
            "fluent": "They delayed the session since the president got sick.",
            "garbage": "The meeting was postponed because the chairman the chairman fell ill."}
FORENSICS = {"knob": "case", "signature": "nrefs:1|case:lc|eff:no|tok:13a|smooth:exp"}

RIGHT = {"1.1": right_tokenize, "2.1": right_ngrams, "3.1": right_clipped, "4.1": right_bp,
         "4.2": right_closest, "5.1": right_geo, "6.1": right_bleu, "7.1": right_corpus,
         "8.1": right_per_segment, "9.1": right_half_width,
         "6.2": lambda: LOWERING, "6.3": lambda: EXTREMES, "8.2": lambda: FORENSICS,
         "9.2": lambda: {"AISP-SJTU", "Online-G"}}
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
    "6.2": lambda: ("a b c d e f", ["a b c d"], "a b c d e f"),  # a perfect reference: up
    "6.3": lambda: {**EXTREMES, "garbage": "Meeting chairman ill postponed."},  # too low
    "8.2": lambda: {"knob": "tok", "signature": FORENSICS["signature"]},  # wrong knob named
    "9.2": lambda: {"JDExploreAcademy"},  # first under both references
}
NEEDS_DATA = {"9.2"}


def _data_or_skip(ex):
    if ex in NEEDS_DATA:
        from notebook_tools import wmt22_unavailable

        reason = wmt22_unavailable()
        if reason:
            pytest.skip(reason)


def crash(*args):
    return 1 / 0


def stub(*args):
    raise NotImplementedError


def test_every_exercise_is_covered():
    assert set(RIGHT) == set(exercises.EXERCISES) == set(WRONG)


@pytest.mark.parametrize("ex", sorted(RIGHT))
def test_right_answer_passes(ex, capsys):
    _data_or_skip(ex)
    exercises.check(ex, RIGHT[ex])
    out = capsys.readouterr().out
    assert out.startswith(f"✔ 练习 {ex} 通过"), out
    assert exercises.results[ex].status == "pass"


@pytest.mark.parametrize("ex", sorted(WRONG))
def test_wrong_answer_names_input_expected_got(ex, capsys):
    _data_or_skip(ex)
    exercises.check(ex, WRONG[ex])
    out = capsys.readouterr().out
    assert f"✘ 练习 {ex} 未通过" in out
    for part in ("输入 (input)", "期望 (expected)", "得到 (got)"):
        assert part in out, out
    assert exercises.results[ex].status == "fail"
    assert "def " not in out and "return" not in out  # never the solution's code


@pytest.mark.parametrize("ex", sorted(RIGHT))
def test_crashing_answer_is_reported_not_raised(ex, capsys):
    _data_or_skip(ex)
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


# --- the judged tasks, against sacrebleu itself -------------------------------------------

def test_lowering_case_matches_sacrebleu():
    sacrebleu = pytest.importorskip("sacrebleu")
    cand, refs, extra = LOWERING
    assert round(sacrebleu.sentence_bleu(cand, refs).score, 2) == 50.81
    assert round(sacrebleu.sentence_bleu(cand, [*refs, extra]).score, 2) == 43.01
    assert exercises.run("6.2", lambda: LOWERING).status == "pass"
    # malformed answers are failures with a message, not crashes
    for bad in (lambda: "a b", lambda: ("a", [], "b"), lambda: ("a", ["b"], 3)):
        assert exercises.run("6.2", bad).status == "fail"


def test_extremes_are_judged_by_sentence_bleu():
    sacrebleu = pytest.importorskip("sacrebleu")
    ref = EXTREMES["reference"]
    assert sacrebleu.sentence_bleu(EXTREMES["fluent"], [ref]).score < 20
    assert sacrebleu.sentence_bleu(EXTREMES["garbage"], [ref]).score > 50
    copy = {**EXTREMES, "garbage": ref.upper()}  # the reference itself is no garbage
    assert exercises.run("6.3", lambda: copy).status == "fail"
    assert exercises.run("6.3", lambda: {"reference": ref}).status == "fail"


def test_forensics_reported_score_and_signatures():
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, refs = list(exercises.FORENSICS_HYPS), [list(exercises.FORENSICS_REFS)]
    want = round(sacrebleu.corpus_bleu(hyps, refs, lowercase=True).score, 2)
    assert exercises.forensics_reported() == want
    assert round(sacrebleu.corpus_bleu(hyps, refs).score, 2) != want  # there is a gap
    ok = exercises.run("8.2", lambda: {"knob": "lowercase", "signature":
                                       FORENSICS["signature"] + "|version:2.6.0"})
    assert ok.status == "pass"
    for bad in ({"knob": "case", "signature": "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp"},
                {"knob": "case", "signature": "nrefs:2|case:lc|eff:no|tok:13a|smooth:exp"},
                {"knob": "case", "signature": "case=lc"},
                {"knob": "smooth", "signature": "nrefs:1|case:lc|eff:no|tok:13a|smooth:none"}):
        assert exercises.run("8.2", lambda bad=bad: bad).status == "fail", bad


@pytest.mark.wmt22
def test_rank_prediction_truth_from_sacrebleu():
    from notebook_tools import wmt22_unavailable

    if wmt22_unavailable():
        pytest.skip(wmt22_unavailable())
    sacrebleu = pytest.importorskip("sacrebleu")
    from bleu_lesson.datasets import load_wmt22

    data = load_wmt22("zh-en", download=False)
    ranks = {}
    for which in ("A", "B"):
        bleu = sacrebleu.BLEU(references=[data.reference_streams(which)[0]])
        scores = {n: bleu.corpus_score(h, None).score for n, h in data.systems.items()}
        ranks[which] = {n: k for k, n in enumerate(sorted(scores, key=lambda n: -scores[n]))}
    truth = {n for n in data.systems if ranks["A"][n] != ranks["B"][n]}
    assert exercises.run("9.2", lambda: truth).status == "pass"
    assert exercises.run("9.2", lambda: truth | {"DLUT"}).status == "fail"
