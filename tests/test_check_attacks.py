"""Issue 20's attacks as submissions: none may borrow the answer key (one ``check`` run).

Each submission is a small notebook of one chapter whose answer tries to get the reference
back instead of computing it: imported from the library under its own or another name
(``EXERCISES["6.1"].reference``, ch09's private key, ``kendall_tau`` /
``pairwise_accuracy`` / ``disagreements``), a copied ``__code__``, the module's source or
``.pyc`` exec'd from the package folder, a fresh interpreter (``subprocess``), sacrebleu,
a decoy in ``sys.modules``, patched ``builtins``, a lookup table of the shown inputs, and
wrong rules the chapters teach. All are checked in one ``check_submissions`` run
(``--jobs 2``); every attack must come back not ``pass``, and the honest submissions
(the same answers written out) must pass on the first try.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from notebook_tools import ROOT

from bleu_lesson.grading import course, sandbox

pytestmark = pytest.mark.skipif(sandbox.backend() != "bwrap",
                                reason="only bubblewrap hides the host's copy of the library")

PACKAGE = ROOT / "bleu_lesson"
VENV_PYTHON = sys.executable

RIGHT_BP = """
import math
def my_brevity_penalty(c, r):
    if c > r:
        return 1.0
    return 0.0 if c == 0 else math.exp(1 - r / c)
"""
RIGHT_FLATTERING = """
def my_flattering_layout():
    return {"candidates": ["a dog ran in the park", "the cat sat on the mat"],
            "streams": [["the cat sat on the mat", "a dog ran in the park"],
                        ["the cat lay on the rug", "a dog ran in a park"]]}
"""
RIGHT_OPPOSITE = """
def my_opposite_rankings():
    long = "The committee will publish its final report on the new railway next spring."
    return {"references": ["Thank you!", long], "A": ["Hello there.", long],
            "B": ["Thank you!", "The board is going to release a report about a railway."]}
"""
RIGHT_CI = """
def my_ci_half_width(scores):
    s = sorted(scores)
    k = len(s) // 40
    return (s[len(s) - k - 1] - s[k]) / 2
"""
RIGHT_ACC = """
def my_pairwise_accuracy(metric, human):
    names = list(metric)
    right = judged = 0
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            dm = metric[names[i]] - metric[names[j]]
            dh = human[names[i]] - human[names[j]]
            if dh:
                judged += 1
                right += dm * dh > 0
    return right / judged
"""

# (file name, chapter, exercise judged, cells, expected: "pass" or "not-pass")
SUBMISSIONS = {
    "honest_bp": ("04_a.ipynb", 4, "4.1", [RIGHT_BP], "pass"),
    "import_under_own_name": ("04_b.ipynb", 4, "4.1", [
        "from bleu_lesson import brevity_penalty as _bp\n"
        "def my_brevity_penalty(c, r):\n    return _bp(c, r)\n"], "not-pass"),
    "copied_code_object": ("04_c.ipynb", 4, "4.1", [
        "from bleu_lesson.core.brevity import brevity_penalty\n_kept = brevity_penalty.__code__\n",
        "def my_brevity_penalty(c, r):\n    pass\nmy_brevity_penalty.__code__ = _kept\n"],
        "not-pass"),
    "exec_of_the_package_source": ("04_d.ipynb", 4, "4.1", [
        f"_ns = {{}}\nexec(open({str(PACKAGE / 'core' / 'brevity.py')!r}).read(), _ns)\n"
        "my_brevity_penalty = lambda c, r: _ns['brevity_penalty'](c, r)\n"], "not-pass"),
    "unmarshal_the_pyc": ("04_e.ipynb", 4, "4.1", [
        "import glob, marshal, types\n"
        f"_pyc = glob.glob({str(PACKAGE / 'core' / '__pycache__' / 'brevity*.pyc')!r})\n"
        "_ns = {}\nexec(marshal.loads(open(_pyc[0], 'rb').read()[16:]), _ns)\n"
        "my_brevity_penalty = lambda c, r: _ns['brevity_penalty'](c, r)\n"], "not-pass"),
    "fresh_interpreter": ("04_f.ipynb", 4, "4.1", [
        "import subprocess\n"
        "def my_brevity_penalty(c, r):\n"
        f"    out = subprocess.run([{VENV_PYTHON!r}, '-c', 'import sys; from bleu_lesson import "
        "brevity_penalty as b; print(repr(b(int(sys.argv[1]), int(sys.argv[2]))))', str(c), "
        "str(r)], capture_output=True, text=True, check=True).stdout\n"
        "    return float(out)\n"], "not-pass"),
    "decoy_in_sys_modules": ("04_g.ipynb", 4, "4.1", [
        "import sys, types\n_m = types.ModuleType('bleu_lesson.core.brevity')\n"
        "_m.brevity_penalty = lambda c, r: 1.0\nsys.modules['bleu_lesson.core.brevity'] = _m\n"
        "from bleu_lesson.core.brevity import brevity_penalty\n"
        "my_brevity_penalty = lambda c, r: brevity_penalty(c, r)\n"], "not-pass"),
    "patched_builtins": ("04_h.ipynb", 4, "4.1", [
        "import builtins\nfrom bleu_lesson import brevity_penalty\n"
        "builtins.my_brevity_penalty = brevity_penalty\n"
        "def my_brevity_penalty(c, r):\n    return builtins.my_brevity_penalty(c, r)\n"],
        "not-pass"),
    "lookup_table_of_shown_inputs": ("04_i.ipynb", 4, "4.1", [
        "import math\n_T = {(6, 7): math.exp(1 - 7 / 6), (7, 6): 1.0, (6, 6): 1.0, "
        "(5, 10): math.exp(-1), (0, 6): 0.0, (1, 3): math.exp(-2)}\n"
        "def my_brevity_penalty(c, r):\n    return _T.get((c, r), 1.0)\n"], "not-pass"),
    "sacrebleu_for_6_1": ("06_a.ipynb", 6, "6.1", [
        "import sacrebleu\n"
        "def my_bleu(candidate, references):\n"
        "    return sacrebleu.sentence_bleu(candidate.lower(), [r.lower() for r in references],"
        " smooth_method='none', tokenize='none').score / 100\n"], "not-pass"),
    "shortest_reference_6_1": ("06_b.ipynb", 6, "6.1", [
        "import math\nfrom collections import Counter\n"
        "def my_bleu(candidate, references):\n"
        "    c = candidate.lower().split(); refs = [r.lower().split() for r in references]\n"
        "    logs = 0.0\n"
        "    for n in range(1, 5):\n"
        "        g = Counter(tuple(c[i:i + n]) for i in range(len(c) - n + 1))\n"
        "        best = Counter()\n"
        "        for ref in refs:\n"
        "            best |= Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1))\n"
        "        m = sum((g & best).values())\n"
        "        if m == 0:\n            return 0.0\n"
        "        logs += math.log(m / sum(g.values())) / 4\n"
        "    r = min(len(x) for x in refs)\n"
        "    bp = 1.0 if len(c) > r else math.exp(1 - r / len(c))\n"
        "    return bp * math.exp(logs)\n"], "not-pass"),
    "honest_opposite_rankings": ("07_a.ipynb", 7, "7.1", [RIGHT_OPPOSITE], "pass"),
    "opposite_rankings_swapped": ("07_b.ipynb", 7, "7.1", [
        RIGHT_OPPOSITE + "_right = my_opposite_rankings\n"
        "def my_opposite_rankings():\n"
        "    d = _right()\n    return {**d, 'A': d['B'], 'B': d['A']}\n"], "not-pass"),
    "honest_flattering_layout": ("08_a.ipynb", 8, "8.1", [RIGHT_FLATTERING], "pass"),
    "exercises_reference_6_1": ("06_c.ipynb", 6, "6.1", [
        "from bleu_lesson.teaching.exercises import EXERCISES\n"
        "my_bleu = lambda c, refs: EXERCISES['6.1'].reference(c, refs)\n"],
        "not-pass"),
    "chapter_private_key_6_1": ("06_d.ipynb", 6, "6.1", [
        "from bleu_lesson.teaching.chapters.ch06 import _my_bleu_reference\n"
        "my_bleu = lambda c, refs: _my_bleu_reference(c, refs)\n"],
        "not-pass"),
    "honest_ci": ("09_a.ipynb", 9, "9.1", [RIGHT_CI], "pass"),
    "chapter_private_key_9_1": ("09_b.ipynb", 9, "9.1", [
        "from bleu_lesson.teaching.chapters import ch09\n"
        "my_ci_half_width = lambda scores: ch09._ci_half_width(scores)\n"], "not-pass"),
    "honest_accuracy": ("10_a.ipynb", 10, "10.2", [RIGHT_ACC], "pass"),
    "analysis_pairwise_accuracy": ("10_b.ipynb", 10, "10.2", [
        "from bleu_lesson.analysis.agreement import pairwise_accuracy\n"
        "my_pairwise_accuracy = lambda m, h: pairwise_accuracy(m, h)\n"], "not-pass"),
    "analysis_disagreements": ("10_c.ipynb", 10, "10.3", [
        "from bleu_lesson.analysis import agreement\n"
        "def my_strongest_disagreement(m, h):\n"
        "    d = agreement.disagreements(m, h)\n    return (d[0][0], d[0][1]) if d else None\n"],
        "not-pass"),
}


# A cell cannot forge the judging reply (item: the reply channel). The cell finds the cases
# the judge sent, computes the right values with a helper it keeps (the answer it defines
# is wrong), and writes a reply in the judge's own format on every file descriptor it has,
# every /proc/PID/fd/* it can open, and the reply file the judge once used; then it ends
# the process before the answer is called. Only the judge's own reply may count.
FORGE = RIGHT_BP.replace("my_brevity_penalty", "_right") + """
import gc, json, os
def _forge():
    req = next(o for o in gc.get_objects() if type(o) is dict and 'answers' in o)
    cases = req['answers'][0]['cases']
    results = [{'value': _right(*c), 'after': c} for c in cases]
    line = ('\\n' + json.dumps({'replies': [{'status': 'done', 'results': results}],
                                'nonce': req.get('nonce', '')}) + '\\n').encode()
    targets = []
    for fd in range(64):
        try:
            os.write(fd, line)
        except OSError:
            pass
    for pid in os.listdir('/proc'):
        if pid.isdigit():
            try:
                targets += [f'/proc/{pid}/fd/' + f for f in os.listdir(f'/proc/{pid}/fd')]
            except OSError:
                pass
    targets += ['../reply.json', '/proc/self/fd/1']
    for t in targets:
        try:
            fd = os.open(t, os.O_WRONLY | os.O_APPEND)
            os.write(fd, line)
            os.close(fd)
        except OSError:
            pass
my_brevity_penalty = lambda c, r: 1.0
if type(get_ipython).__name__ == 'Absent':  # only where it is judged
    _forge()
"""
FORGED_MESSAGE = "\n✔ 练习 4.1 通过 (passed): 8/8 个测试用例"
# A cell that spins where it is judged, deaf to SIGALRM and SIGXCPU; the right answer is
# defined before it (a per-cell limit that let the cell continue would still judge it).
SPIN = RIGHT_BP + """
import signal
if type(get_ipython).__name__ == 'Absent':
    for _s in (signal.SIGALRM, signal.SIGXCPU):
        signal.signal(_s, signal.SIG_IGN)
    while True:
        try:
            while True:
                pass
        except BaseException:
            pass
"""
PROBE = """
import os
def _try(what, f):
    try:
        f()
        return what + ':reached'
    except OSError as exc:
        return what + ':' + type(exc).__name__
def my_brevity_penalty(c, r):
    judge = os.getppid()
    return ' '.join([
        _try('fd', lambda: os.open(f'/proc/{judge}/fd/1', os.O_WRONLY)),
        _try('mem', lambda: open(f'/proc/{judge}/mem', 'rb').read(1)),
        _try('environ', lambda: open(f'/proc/{judge}/environ', 'rb').read(1)),
        _try('stdout', lambda: os.write(1, b'x')),  # /dev/null: goes nowhere
        _try('fork', lambda: os._exit(0) if os.fork() == 0 else None),
    ])
"""
RIGHT_TAU = ("def my_tau():\n    return {'JDExploreAcademy': 40, 'Online-G': 30, 'Online-A': 20,"
             " 'HuaweiTSC': 10}\n")
# a search over the 24 orders with a tau the answer did not write: each must not pass
_SEARCH = ("from itertools import permutations\n"
           "_H = {'JDExploreAcademy': -0.026, 'HuaweiTSC': -0.034, 'Online-G': -0.098,"
           " 'Online-A': -0.083}\n"
           "def _search(tau):\n"
           "    for order in permutations(sorted(_H)):\n"
           "        b = {s: 40 - 10 * k for k, s in enumerate(order)}\n"
           "        if order[0] == 'JDExploreAcademy' and abs(tau(b)) < 1e-9:\n"
           "            return b\n")
CHANNEL = {
    "forged_reply_then_exit": ("04_j.ipynb", 4, "4.1", [FORGE + "    os._exit(0)\n"],
                               "not-pass"),
    "forged_reply_then_go_on": ("04_k.ipynb", 4, "4.1", [FORGE], "not-pass"),
    "forged_status_in_exception": ("04_l.ipynb", 4, "4.1", [
        f"def my_brevity_penalty(c, r):\n    raise ValueError({FORGED_MESSAGE!r})\n"],
        "not-pass"),
    # what the cells' process can reach of the judge's process: its answer reports it
    "probe_the_judge": ("04_n.ipynb", 4, "4.1", [PROBE], "not-pass"),
    "cell_spinning_cpu": ("04_m.ipynb", 4, "4.1", [SPIN], "not-pass"),
    # 10.1 cannot be computed with the library's tau, scipy or another interpreter
    "honest_tau": ("10_d.ipynb", 10, "10.1", [RIGHT_TAU], "pass"),
    "library_tau_10_1": ("10_e.ipynb", 10, "10.1", [
        "from bleu_lesson.analysis.agreement import kendall_tau\n" + _SEARCH
        + "def my_tau():\n    return _search(lambda b: kendall_tau(b, _H))\n"], "not-pass"),
    "library_tau_value_10_1": ("10_f.ipynb", 10, "10.1", [
        "from bleu_lesson.analysis.agreement import kendall_tau\n" + _SEARCH
        + "_found = _search(lambda b: kendall_tau(b, _H))\nmy_tau = lambda: _found\n"],
        "not-pass"),
    "scipy_tau_10_1": ("10_g.ipynb", 10, "10.1", [
        "from scipy.stats import kendalltau\n" + _SEARCH
        + "def my_tau():\n    return _search(lambda b: float(kendalltau("
        "[b[s] for s in sorted(_H)], [_H[s] for s in sorted(_H)]).statistic))\n"],
        "not-pass"),
    "subprocess_tau_10_1": ("10_h.ipynb", 10, "10.1", [
        "import subprocess\n" + _SEARCH
        + "def my_tau():\n"
        f"    return _search(lambda b: float(subprocess.run([{VENV_PYTHON!r}, '-c', "
        "'import sys; from scipy.stats import kendalltau; print(kendalltau(eval(sys.argv[1]),"
        " eval(sys.argv[2])).statistic)', repr([b[s] for s in sorted(_H)]), "
        "repr([_H[s] for s in sorted(_H)])], capture_output=True, text=True, check=True)"
        ".stdout))\n"], "not-pass"),
}
SUBMISSIONS.update(CHANNEL)

# Evasion by naming: no chapter metadata, no NN_ in the file name (chapter None below)
NAMING = {
    "renamed_without_metadata": ("my_homework.ipynb", None, "4.1", [
        RIGHT_BP, "from bleu_lesson.teaching.exercises import check\n"
                  "check('4.1', my_brevity_penalty)\n"], "pass"),
    "nothing_to_tell_the_chapter": ("homework.ipynb", None, "-", ["print('hello')\n"],
                                    "not-pass"),
}
SUBMISSIONS.update(NAMING)

# Hostile review round 5. 8.2 used to be judged in the learner's kernel, which could import
# the judge (chapters/ch08) as an oracle or forge the judging cell's text/plain reply; it
# is judged in a world that holds sacrebleu and the givens only. A value the trusted side
# cannot read (10**400), or raw bytes on the kernel's own sockets, used to cost the
# submission its rows; and a Fraction, right in the notebook, was refused by the world.
FORENSICS_GIVENS = ("import sacrebleu\n"
                    "from bleu_lesson.core.forensics import FORENSICS_HYPS, FORENSICS_REFS, "
                    "forensics_reported\n")
RIGHT_FORENSICS = """
def my_forensics():
    for knob, options in (("tok", {"tokenize": "intl"}), ("tok", {"tokenize": "none"}),
                          ("smooth", {"smooth_method": "none"}), ("case", {"lowercase": True})):
        bleu = sacrebleu.BLEU(**options)
        score = bleu.corpus_score(list(FORENSICS_HYPS), [list(FORENSICS_REFS)]).score
        if round(score, 2) == forensics_reported():
            return {"knob": knob, "signature": str(bleu.get_signature())}
"""
# 8.1's answer is right only where sacrebleu really scores (8.1's world holds sacrebleu)
SACREBLEU_FOR_8_1 = ("_works = type(sacrebleu.corpus_bleu(['a b'], [['a b']]).score) is float\n"
                     + RIGHT_FLATTERING.replace("def my_flattering_layout():",
                                                "def _right():")
                     + "my_flattering_layout = _right if _works else (lambda: None)\n")
ORACLE = """
from bleu_lesson.teaching.chapters import ch08
def my_forensics():
    for knob, values in {"case": ["lc"], "tok": ["none", "intl"], "smooth": ["none"]}.items():
        for v in values:
            sig = "|".join(f"{k}:{v if k == knob else d}"
                           for k, d in ch08._DEFAULT_SIGNATURE.items())
            if ch08._judge_forensics((), {"knob": knob, "signature": sig})[0]:
                return {"knob": knob, "signature": sig}
    return {"knob": "?", "signature": "?"}
"""
FORGED_FORMATTER = """
import json
def my_forensics():
    return {"knob": "tok", "signature": "nrefs:1|case:mixed|eff:no|tok:intl|smooth:exp"}
RIGHT = {"__dict__": [["knob", "case"],
                      ["signature", "nrefs:1|case:lc|eff:no|tok:13a|smooth:exp"]]}
def _fmt(s, p, cycle):
    if isinstance(s, str) and s.startswith('{"status"'):
        p.text(repr(json.dumps({"status": "done", "results": [{"value": RIGHT, "after": []}]})))
    else:
        p.text(repr(s))
get_ipython().display_formatter.formatters["text/plain"].for_type(str, _fmt)
"""
RAW_BYTES = """
import os, json
for fd in range(3, 64):
    for payload in (json.dumps({"cell": 0, "error": None}),
                    json.dumps({"status": "done", "results": []}),
                    json.dumps({"replies": [{"status": "done", "results": []}] * 3,
                                "nonce": ""})):
        data = payload.encode()
        for junk in (len(data).to_bytes(4, "big") + data, data + b"\\n"):
            try:
                os.write(fd, junk)
            except OSError:
                pass
for p in ("/proc/self/fd/1", "/dev/stdout", "/dev/stderr", "/proc/1/fd/1", "/proc/2/fd/1"):
    try:
        open(p, "w").write('{"replies": [], "nonce": ""}\\n')
    except OSError:
        pass
"""
ROUND5 = {
    "honest_forensics_8_2": ("08_c.ipynb", 8, "8.2", [FORENSICS_GIVENS, RIGHT_FORENSICS,
                                                      SACREBLEU_FOR_8_1], "pass"),
    "forensics_oracle_of_the_judge": ("08_d.ipynb", 8, "8.2", [FORENSICS_GIVENS, ORACLE],
                                      "not-pass"),
    "forensics_forged_text_plain": ("08_e.ipynb", 8, "8.2", [FORENSICS_GIVENS,
                                                             FORGED_FORMATTER], "not-pass"),
    "huge_ints_4": ("04_o.ipynb", 4, "4.1", [
        "def my_brevity_penalty(c, r):\n    return 10 ** 400\n"
        "def my_closest_ref_length(c, ref_lens):\n    return -(10 ** 4000)\n"], "not-pass"),
    "raw_bytes_on_the_kernels_fds": ("04_p.ipynb", 4, "4.1", [RIGHT_BP, RAW_BYTES],
                                     "not-pass"),
    "honest_accuracy_fraction": ("10_i.ipynb", 10, "10.2", [
        "from fractions import Fraction\n"
        + RIGHT_ACC.replace("return right / judged", "return Fraction(int(right), judged)")],
        "pass"),
}
SUBMISSIONS.update(ROUND5)

# a tenth hostile review's fake passes, as submissions: each must now fail in ``check``
OTHER_CHAPTER_SENTENCES = """
def my_tokenizer_pairs():
    return {"seed_beats_13a": ("It's 3.5 dollars, isn't it?", "it's 3.5 dollars, isn't it?"),
            "13a_beats_seed": ("It's 3.5 dollars, isn't it?", "It's 3.5 dollars , isn't it ?"),
            "char_beats_zh": ("BLEU在2002年提出。", "BLEU在2020年提出。")}
"""
ROUND10 = {
    "chapter_sentences_1_1": ("01_r.ipynb", 1, "1.1", [OTHER_CHAPTER_SENTENCES], "not-pass"),
    "bp_0_when_r_is_0": ("04_r.ipynb", 4, "4.1", [
        "import math\ndef my_brevity_penalty(c, r):\n    if c == 0 or r == 0:\n"
        "        return 0.0\n    return 1.0 if c >= r else math.exp(1 - r / c)\n"],
        "not-pass"),
    "closest_by_float_ratio": ("04_s.ipynb", 4, "4.2", [
        "def my_closest_ref_length(c, ref_lens):\n    return min(ref_lens) if c == 0 else "
        "min(ref_lens, key=lambda r: (abs(1 - r / c), r))\n"], "not-pass"),
    "zero_length_references_skipped": ("04_t.ipynb", 4, "4.2", [
        "def my_closest_ref_length(c, ref_lens):\n    real = [r for r in ref_lens if r > 0] "
        "or ref_lens\n    return min(real, key=lambda r: (abs(r - c), r))\n"], "not-pass"),
    "pairs_tied_by_both_discordant": ("10_r.ipynb", 10, "10.3", [
        "def my_strongest_disagreement(metric, human):\n"
        "    sg = lambda x: (x > 0) - (x < 0)\n    names = list(metric)\n    best = None\n"
        "    for i, a in enumerate(names):\n        for b in names[i + 1:]:\n"
        "            dm, dh = metric[a] - metric[b], human[a] - human[b]\n"
        "            if sg(dm) == -sg(dh) and (best is None or abs(dh) > best[0]):\n"
        "                best = (abs(dh), (a, b) if dh >= 0 else (b, a))\n"
        "    return best and best[1]\n"], "not-pass"),
}
SUBMISSIONS.update(ROUND10)

#: a learner's own my_bleu, with the references prepared by ``{ref}`` (kept if ``{keep}``)
#: and r chosen by ``{closest}``: right as written in "honest_bleu_template_6_1"
BLEU_WITH = """
import math
import unicodedata
from collections import Counter
def my_bleu(candidate, references):
    c = candidate.lower().split()
    refs = [{ref} for r in references{keep}]
    if not c:
        return 0.0
    logs = 0.0
    for n in range(1, 5):
        g = Counter(tuple(c[i:i + n]) for i in range(len(c) - n + 1))
        best = Counter()
        for ref in refs:
            best |= Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1))
        m, t = sum((g & best).values()), sum(g.values())
        if m == 0:
            return 0.0
        logs += math.log(m / t) / 4
    lens = [len(x) for x in refs]
    r = {closest}
    bp = 1.0 if len(c) > r else math.exp(1 - r / len(c))
    return bp * math.exp(logs)
"""


def _bleu_with(ref="r.lower().split()", keep="",
               closest="min(lens, key=lambda x: (abs(x - len(c)), x))") -> str:
    return BLEU_WITH.format(ref=ref, keep=keep, closest=closest)


#: an eleventh hostile review's fake passes: the references treated otherwise than the
#: candidate (every edge case had been on the candidate's side), blank references skipped,
#: and ties kept in a set's iteration order
ROUND11 = {
    "honest_bleu_template_6_1": ("06_r.ipynb", 6, "6.1", [_bleu_with()], "pass"),
    "casefold_references_only": ("06_s.ipynb", 6, "6.1", [
        _bleu_with(ref="r.casefold().split()")], "not-pass"),
    "nfkc_references_only": ("06_t.ipynb", 6, "6.1", [
        _bleu_with(ref="unicodedata.normalize('NFKC', r).lower().split()")], "not-pass"),
    "references_split_on_one_space": ("06_u.ipynb", 6, "6.1", [
        _bleu_with(ref="[w for w in r.lower().split(' ') if w]")], "not-pass"),
    "blank_references_skipped": ("06_v.ipynb", 6, "6.1", [
        _bleu_with(keep=" if r.strip()")], "not-pass"),
    "ties_by_set_order_6_1": ("06_w.ipynb", 6, "6.1", [
        _bleu_with(closest="min(set(lens), key=lambda x: abs(x - len(c)))")], "not-pass"),
    "ties_by_set_order_4_2": ("04_u.ipynb", 4, "4.2", [
        "def my_closest_ref_length(c, ref_lens):\n"
        "    return min(set(ref_lens), key=lambda r: abs(r - c))\n"], "not-pass"),
}
SUBMISSIONS.update(ROUND11)


#: a fourteenth hostile review: honest answers that compute with numpy (chapter 09 imports
#: it) passed the notebook's check and were refused where they are judged, where numpy was
#: absent. The world now holds a private copy of numpy; numpy scalars are judged as the
#: notebook's ``same`` judges them, an ndarray is no plain value in either place, and
#: numpy neither computes a wrong rule right nor leads to the answer key.
NUMPY = {
    "numpy_values_5_1": ("05_n.ipynb", 5, "5.1", [
        "import numpy as np\n"
        "def my_flip():\n"
        "    a = [float(x) for x in np.array([1, 1, 1, 0.01])]\n"
        "    b = list(np.full(4, 0.5))\n"
        "    return a, b\n"], "pass"),
    "numpy_geomean_6_1": ("06_n.ipynb", 6, "6.1", [
        "import numpy as np\n" + _bleu_with().replace(
            "logs += math.log(m / t) / 4", "logs += float(np.log(m / t)) / 4")
        .replace("return bp * math.exp(logs)", "return bp * float(np.exp(logs))")], "pass"),
    "numpy_sort_9_1": ("09_n.ipynb", 9, "9.1", [
        "import numpy as np\n"
        "def my_ci_half_width(scores):\n"
        "    s = np.sort(np.asarray(scores)); k = len(s) // 40\n"
        "    return (s[len(s) - 1 - k] - s[k]) / 2\n"], "pass"),
    "numpy_sign_10_2": ("10_n.ipynb", 10, "10.2", [
        "import numpy as np\n"
        "def my_pairwise_accuracy(metric, human):\n"
        "    ok = tot = 0\n"
        "    for a in human:\n"
        "        for b in human:\n"
        "            if human[a] == human[b]:\n                continue\n"
        "            tot += 1\n"
        "            ok += int(np.sign(metric[a] - metric[b]) == np.sign(human[a] - human[b]))\n"
        "    return ok / tot\n"], "pass"),
    "numpy_scalars_4": ("04_n.ipynb", 4, "4.1", [
        "import numpy as np\n"
        "def my_brevity_penalty(c, r):\n"
        "    if c > r:\n        return np.float64(1.0)\n"
        "    return np.float64(0.0) if c == 0 else np.exp(np.float64(1 - r / c))\n"
        "def my_closest_ref_length(c, ref_lens):\n"
        "    lens = np.array(ref_lens, dtype=np.int64)\n"
        "    return lens[np.lexsort((lens, np.abs(lens - c)))][0]\n"], "pass"),
    "numpy_ndarray_4_1": ("04_o.ipynb", 4, "4.1", [
        RIGHT_BP.replace("def my_brevity_penalty", "def _bp"),
        "import numpy as np\nmy_brevity_penalty = lambda c, r: np.array(_bp(c, r))\n"],
        "not-pass"),
    "numpy_percentile_nearest_9_1": ("09_o.ipynb", 9, "9.1", [
        "import numpy as np\n"
        "def my_ci_half_width(scores):\n"
        "    lo, hi = np.percentile(scores, [2.5, 97.5], method='nearest')\n"
        "    return float(hi - lo) / 2\n"], "not-pass"),
    # numpy's folder leads nowhere: in the kernel, sacrebleu sits beside numpy; where the
    # answer is judged, the copy's folder holds numpy alone
    "numpy_folder_to_sacrebleu_6_1": ("06_o.ipynb", 6, "6.1", [
        "import os, sys, numpy\n"
        "sys.path.insert(0, os.path.dirname(os.path.dirname(numpy.__file__)))\n"
        "import sacrebleu\n"
        "def my_bleu(candidate, references):\n"
        "    return sacrebleu.sentence_bleu(candidate.lower(), [r.lower() for r in references],"
        " smooth_method='none', tokenize='none').score / 100\n"], "not-pass"),
}
SUBMISSIONS.update(NUMPY)


#: a sixteenth hostile review: honest answers that use earlier chapters' functions (the
#: geometric mean of chapter 5, chapter 1's tokenizers) passed the notebook and were refused
#: where answers are judged; an answer in a ``%%time`` cell was not run there at all; and
#: a tokenizer from the seed's code (absent there: it holds the answer) gave a row that
#: blamed the score, not the missing module
ROUND16 = {
    "geometric_mean_of_chapter_5_6_1": ("06_g.ipynb", 6, "6.1", [
        "from bleu_lesson import geometric_mean\n" + _bleu_with()
        .replace("logs += math.log(m / t) / 4", "logs = logs or []; logs.append(m / t)")
        .replace("logs = 0.0", "logs = []")
        .replace("return bp * math.exp(logs)", "return bp * geometric_mean(logs)")], "pass"),
    "tokenizer_of_chapter_1_6_1": ("06_k.ipynb", 6, "6.1", [
        "from bleu_lesson import get_tokenizer\ntok = get_tokenizer('none', lowercase=True)\n"
        + _bleu_with(ref="tok(r)").replace("c = candidate.lower().split()",
                                           "c = tok(candidate)")], "pass"),
    "seed_tokenize_6_1": ("06_l.ipynb", 6, "6.1", [
        "from bleu_lesson.core.seed import tokenize\n"
        + _bleu_with(ref="tokenize(r)").replace("c = candidate.lower().split()",
                                                "c = tokenize(candidate)")], "not-pass"),
    "time_magic_4_1": ("04_t.ipynb", 4, "4.1", ["%%time\n" + RIGHT_BP], "pass"),
}
SUBMISSIONS.update(ROUND16)


#: a seventeenth hostile review: honest answers with IPython syntax the world took for a
#: magic (a wrapped condition starting with ``!=``, a ``%`` format on a continuation line),
#: a ``%time`` inside a loop and a ``sorted?`` help line were refused (SyntaxError,
#: IndentationError); pairing 10.2/10.3's dicts by position passed every draw
MAGICS = "%matplotlib inline\nimport math\n"
ROUND17 = {
    "wrapped_not_equal_10_2": ("10_a.ipynb", 10, "10.2", [MAGICS, RIGHT_ACC.replace(
        "            if dh:\n",
        "            if (human[names[i]]\n                    != human[names[j]]):\n")],
        "pass"),
    "percent_on_a_continuation_line_9_1": ("09_a.ipynb", 9, "9.1", [MAGICS, RIGHT_CI.replace(
        "    return", "    print('n = %d, cut %d'\n          % (len(s), k))\n    return")],
        "pass"),
    "time_in_a_loop_4_1": ("04_u.ipynb", 4, "4.1", [
        MAGICS + RIGHT_BP
        + "\nfor c, r in ((6, 7), (5, 10)):\n    %time my_brevity_penalty(c, r)\n"],
        "pass"),
    "help_line_9_1": ("09_b.ipynb", 9, "9.1", ["sorted?\n" + RIGHT_CI], "pass"),
    "pairs_by_position_10_2": ("10_b.ipynb", 10, "10.2", [
        "def my_pairwise_accuracy(metric, human):\n"
        "    m, h = list(metric.values()), list(human.values())\n"
        "    right = judged = 0\n"
        "    for i in range(len(m)):\n"
        "        for j in range(i + 1, len(m)):\n"
        "            if h[i] != h[j]:\n"
        "                judged += 1\n"
        "                right += (m[i] - m[j]) * (h[i] - h[j]) > 0\n"
        "    return right / judged\n"], "not-pass"),
    "pairs_by_position_10_3": ("10_c.ipynb", 10, "10.3", [
        "def my_strongest_disagreement(metric, human):\n"
        "    rows = list(zip(metric, metric.values(), human.values()))\n"
        "    best, gap = None, 0.0\n"
        "    for i in range(len(rows)):\n"
        "        for j in range(i + 1, len(rows)):\n"
        "            (a, ma, ha), (b, mb, hb) = rows[i], rows[j]\n"
        "            if (ma - mb) * (ha - hb) < 0 and abs(ha - hb) > gap:\n"
        "                best, gap = ((a, b) if ha > hb else (b, a)), abs(ha - hb)\n"
        "    return best\n"], "not-pass"),
    # three cells fail before the answer's own (a data cell, a plot, a name): the row names
    # the answer cell's SyntaxError first
    "answer_cell_error_named_first_4_1": ("04_v.ipynb", 4, "4.1", [
        "import no_such_data_module\n", "plot(table)\n", "1 / 0\n",
        "def my_brevity_penalty(c, r)\n    return 1.0\n"], "not-pass"),
}
SUBMISSIONS.update(ROUND17)


#: an eighteenth hostile review: four wrong rules the hidden cases let through (a tiny
#: penalty flushed to 0, an empty candidate counted as one token, the set of the scores
#: sorted, human gap per metric gap); honest answers with IPython's assignment forms and a
#: helper written by %%writefile were refused; an annotation naming nothing raises in the
#: notebook and passed where answers are judged
ROUND18 = {
    "bp_flushed_to_0_4_1": ("04_w.ipynb", 4, "4.1", [RIGHT_BP.replace(
        "    if c > r:", "    if r > 15 * c > 0:\n        return 0.0\n    if c > r:")],
        "not-pass"),
    "empty_candidate_as_one_token_4_2": ("04_x.ipynb", 4, "4.2", [
        "def my_closest_ref_length(c, ref_lens):\n"
        "    c = max(c, 1)\n"
        "    return min(ref_lens, key=lambda r: (abs(r - c), r))\n"], "not-pass"),
    "sorted_set_of_scores_9_1": ("09_c.ipynb", 9, "9.1", [
        "def my_ci_half_width(scores):\n"
        "    s = sorted(set(scores))\n"
        "    k = min(len(scores) // 40, len(s) - 1)\n"
        "    return (s[max(len(s) - 1 - k, 0)] - s[k]) / 2\n"], "not-pass"),
    "human_gap_per_metric_gap_10_3": ("10_d.ipynb", 10, "10.3", [
        "def my_strongest_disagreement(metric, human):\n"
        "    names = list(metric)\n"
        "    best, key = None, -1.0\n"
        "    for i, a in enumerate(names):\n"
        "        for b in names[i + 1:]:\n"
        "            dm, dh = metric[a] - metric[b], human[a] - human[b]\n"
        "            if dm * dh < 0 and abs(dh) / abs(dm) > key:\n"
        "                best, key = ((a, b) if dh > 0 else (b, a)), abs(dh) / abs(dm)\n"
        "    return best\n"], "not-pass"),
    "assignment_magics_4_1": ("04_y.ipynb", 4, "4.1", [
        RIGHT_BP + "here = !pwd\nt = %timeit -o -n 1 -r 1 my_brevity_penalty(6, 7)\n"
        "bp = %time my_brevity_penalty(6, 7)\n"], "pass"),
    "writefile_helper_9_1": ("09_d.ipynb", 9, "9.1", [
        "%%writefile ci_helper.py\n" + RIGHT_CI,
        "from ci_helper import my_ci_half_width\n"], "pass"),
    "annotation_naming_nothing_4_1": ("04_z.ipynb", 4, "4.1", [
        RIGHT_BP.replace("def my_brevity_penalty(c, r):", "def my_brevity_penalty(c, r) -> Real:")],
        "not-pass"),
}
SUBMISSIONS.update(ROUND18)


#: a nineteenth hostile review: five wrong rules the hidden cases let through, and honest
#: answers refused: a helper run by %run, written by %%file, a __future__ import in an
#: earlier cell (IPython keeps it for the cells after it)
ROUND19 = {
    "distance_and_length_as_one_key_4_2": ("04_aa.ipynb", 4, "4.2", [
        "def my_closest_ref_length(c, ref_lens):\n"
        "    return min(ref_lens, key=lambda r: abs(r - c) * 10**6 + r)\n"], "not-pass"),
    "distance_and_length_as_one_key_6_1": ("06_aa.ipynb", 6, "6.1", [
        _bleu_with(closest="min(lens, key=lambda x: abs(x - len(c)) * 1000 + x)")],
        "not-pass"),
    "lowered_letter_by_letter_6_1": ("06_ab.ipynb", 6, "6.1", [
        _bleu_with(ref="''.join(map(str.lower, r)).split()").replace(
            "c = candidate.lower().split()", "c = ''.join(map(str.lower, candidate)).split()")],
        "not-pass"),
    "human_gap_minus_metric_gap_10_3": ("10_e.ipynb", 10, "10.3", [
        "def my_strongest_disagreement(metric, human):\n"
        "    names, best, key = list(metric), None, None\n"
        "    for i, a in enumerate(names):\n"
        "        for b in names[i + 1:]:\n"
        "            dm, dh = metric[a] - metric[b], human[a] - human[b]\n"
        "            k = abs(dh) - abs(dm) / 1000\n"
        "            if dm * dh < 0 and (key is None or k > key):\n"
        "                best, key = ((a, b) if dh > 0 else (b, a)), k\n"
        "    return best\n"], "not-pass"),
    "human_gap_rounded_to_3_places_10_3": ("10_f.ipynb", 10, "10.3", [
        "def my_strongest_disagreement(metric, human):\n"
        "    names, best, key = list(metric), None, None\n"
        "    for i, a in enumerate(names):\n"
        "        for b in names[i + 1:]:\n"
        "            dm, dh = metric[a] - metric[b], human[a] - human[b]\n"
        "            k = (round(abs(dh), 3), -abs(dm))\n"
        "            if dm * dh < 0 and (key is None or k > key):\n"
        "                best, key = ((a, b) if dh > 0 else (b, a)), k\n"
        "    return best\n"], "not-pass"),
    "helper_by_percent_run_4_1": ("04_ab.ipynb", 4, "4.1", [
        "%%writefile bp_helper.py\n" + RIGHT_BP, "%run bp_helper.py\n"], "pass"),
    "helper_by_percent_percent_file_4_1": ("04_ac.ipynb", 4, "4.1", [
        "%%file bp_helper2.py\n" + RIGHT_BP, "from bp_helper2 import my_brevity_penalty\n"],
        "pass"),
    "future_annotations_in_an_earlier_cell_4_1": ("04_ad.ipynb", 4, "4.1", [
        "from __future__ import annotations\n",
        RIGHT_BP.replace("def my_brevity_penalty(c, r):", "def my_brevity_penalty(c, r) -> Real:")],
        "pass"),
}
SUBMISSIONS.update(ROUND19)


#: a twentieth hostile review: a tie-break by a constant larger than any length drawn
#: (the tasks now state their domain and each draw reaches its edge, so a constant below
#: the edge fails and one exact on the whole domain is right), and an honest helper
#: written by a %%writefile alias of %alias_magic
ROUND20 = {
    "distance_times_10_7_plus_length_4_2": ("04_ae.ipynb", 4, "4.2", [
        "def my_closest_ref_length(c, ref_lens):\n"
        "    return min(ref_lens, key=lambda r: abs(r - c) * 10**7 + r)\n"], "not-pass"),
    "distance_plus_1e_8_length_4_2": ("04_af.ipynb", 4, "4.2", [
        "def my_closest_ref_length(c, ref_lens):\n"
        "    return min(ref_lens, key=lambda r: abs(r - c) + 1e-8 * r)\n"], "not-pass"),
    "distance_times_10_4_plus_length_exact_on_the_domain_6_1": ("06_ac.ipynb", 6, "6.1", [
        _bleu_with(closest="min(lens, key=lambda x: abs(x - len(c)) * 10**4 + x)")], "pass"),
    "helper_by_an_alias_of_writefile_4_1": ("04_ag.ipynb", 4, "4.1", [
        "%alias_magic w writefile\n", "%%w bp_helper3.py\n" + RIGHT_BP,
        "from bp_helper3 import my_brevity_penalty\n"], "pass"),
}
SUBMISSIONS.update(ROUND20)


#: a twenty-first hostile review: two wrong 6.1 rules the cases let through (re.split on
#: the stripped text reads a blank reference as one token; n-gram keys joined with "_"),
#: honest answers refused (%run FILE without .py, %run -i, a %%prun cell, a helper
#: package made by !mkdir, an 8.1 layout searched for with sacrebleu), and not-done rows
#: that named the chapter's cells before the cell that failed to define the answer
ROUND21 = {
    "re_split_on_the_stripped_text_6_1": ("06_ad.ipynb", 6, "6.1", [
        "import re\n" + _bleu_with(ref="re.split(r'\\s+', r.lower().strip())")], "not-pass"),
    "ngram_key_joined_by_underscore_6_1": ("06_ae.ipynb", 6, "6.1", [
        _bleu_with().replace("tuple(c[i:i + n])", "'_'.join(c[i:i + n])").replace(
            "tuple(ref[i:i + n])", "'_'.join(ref[i:i + n])")], "not-pass"),
    "percent_run_without_py_4_1": ("04_ah.ipynb", 4, "4.1", [
        "%%writefile bp_helper4.py\n" + RIGHT_BP, "%run bp_helper4\n"], "pass"),
    "percent_run_i_sees_the_notebook_4_1": ("04_ai.ipynb", 4, "4.1", [
        "import math\n", "%%writefile bp_helper5.py\n" + RIGHT_BP.replace("import math\n", ""),
        "%run -i bp_helper5.py\n"], "pass"),
    "answer_in_a_prun_cell_4_1": ("04_aj.ipynb", 4, "4.1", ["%%prun -q\n" + RIGHT_BP], "pass"),
    "helper_package_made_by_mkdir_4_1": ("04_ak.ipynb", 4, "4.1", [
        "!mkdir -p mylib\n", "%%writefile mylib/bp.py\n" + RIGHT_BP,
        "from mylib.bp import my_brevity_penalty\n"], "pass"),
    "layout_searched_with_sacrebleu_8_1": ("08_f.ipynb", 8, "8.1", [
        "import sacrebleu\n"
        "def my_flattering_layout():\n"
        "    tries = [([\"a b c d\", \"e f g h\"], [[\"a b c d\", \"e f g h\"]]),\n"
        "             ([\"a dog ran in the park\", \"the cat sat on the mat\"],\n"
        "              [[\"the cat sat on the mat\", \"a dog ran in the park\"],\n"
        "               [\"the cat lay on the rug\", \"a dog ran in a park\"]])]\n"
        "    for cands, streams in tries:\n"
        "        wrong = [list(x) for x in zip(*streams)]\n"
        "        if len(wrong) == len(streams) and sacrebleu.corpus_bleu(cands, wrong).score > \\\n"
        "                sacrebleu.corpus_bleu(cands, streams).score:\n"
        "            return {\"candidates\": cands, \"streams\": streams}\n"], "pass"),
    "not_done_names_the_failed_run_first_4_1": ("04_al.ipynb", 4, "4.1", [
        "<md># my work", "1 / 0\n", "int('x')\n", "undefined_name\n", "<md>the helper",
        "%run no_such_helper.py\n"], "not-pass"),
    "not_done_names_a_cell_magic_not_run_4_1": ("04_am.ipynb", 4, "4.1", [
        "%%script false\n" + RIGHT_BP], "not-pass"),
}
SUBMISSIONS.update(ROUND21)


#: a twenty-second hostile review: 4.2 tie-breaks by a constant epsilon, lost to float
#: rounding at the stated domain's large distances (every draw passed), 5.1's Fractions
#: refused, and not-done rows that did not name the cell IPython runs and the world does
#: not (a helper written by a shell line, by get_ipython().run_cell_magic)
ROUND22 = {
    "epsilon_for_the_longer_4_2": ("04_an.ipynb", 4, "4.2", [
        "def my_closest_ref_length(c, ref_lens):\n"
        "    return min(ref_lens, key=lambda r: abs(r - c) + 1e-9 * (r > c))\n"], "not-pass"),
    "c_shifted_by_epsilon_4_2": ("04_ao.ipynb", 4, "4.2", [
        "def my_closest_ref_length(c, ref_lens):\n"
        "    return min(ref_lens, key=lambda r: abs(r - (c - 1e-8)))\n"], "not-pass"),
    "fraction_precisions_5_1": ("05_c.ipynb", 5, "5.1", [
        "from fractions import Fraction as F\n"
        "def my_flip():\n"
        "    return ([F(1), F(1), F(1), F(1, 100)], [F(1, 2)] * 4)\n"], "pass"),
    "helper_written_by_a_shell_line_4_1": ("04_ap.ipynb", 4, "4.1", [
        "!printf 'def my_brevity_penalty(c, r):\\n    return 1.0\\n' > bphelp.py\n",
        "from bphelp import my_brevity_penalty\n"], "not-pass"),
    "helper_written_by_run_cell_magic_4_1": ("04_aq.ipynb", 4, "4.1", [
        "get_ipython().run_cell_magic('writefile', 'bphelp2.py', " + repr(RIGHT_BP) + ")\n",
        "from bphelp2 import my_brevity_penalty\n"], "not-pass"),
}
SUBMISSIONS.update(ROUND22)


#: a twenty-third hostile review: 4.2's lengths as float32 (near 10**9 it holds only
#: multiples of 64; 35 of 200 draws passed), honest answers refused: 10.1's scores as
#: Fractions, %%writefile to ~/ and to a quoted name with a space
ROUND23 = {
    "lengths_as_float32_4_2": ("04_ar.ipynb", 4, "4.2", [
        "import numpy as np\n"
        "def my_closest_ref_length(c, ref_lens):\n"
        "    arr = np.asarray(ref_lens, dtype=np.float32)\n"
        "    d = np.abs(arr - np.float32(c))\n"
        "    return int(ref_lens[int(np.lexsort((arr, d))[0])])\n"], "not-pass"),
    "scores_as_fractions_10_1": ("10_h.ipynb", 10, "10.1", [
        "from fractions import Fraction\n"
        "def my_tau():\n"
        "    return {'JDExploreAcademy': Fraction(80, 2), 'Online-G': Fraction(30),\n"
        "            'Online-A': Fraction(20), 'HuaweiTSC': Fraction(10)}\n"], "pass"),
    "helper_written_to_home_4_1": ("04_as.ipynb", 4, "4.1", [
        "%%writefile ~/bp_home.py\n" + RIGHT_BP,
        "import os, sys\nsys.path.append(os.path.expanduser('~'))\n"
        "from bp_home import my_brevity_penalty\n"], "pass"),
    "helper_by_bash_imported_inside_the_answer_4_1": ("04_au.ipynb", 4, "4.1", [
        "%%bash\ncat > bp_lazy.py <<'EOF'\n" + RIGHT_BP + "EOF\n",
        "def my_brevity_penalty(c, r):\n"
        "    from bp_lazy import my_brevity_penalty as bp\n"
        "    return bp(c, r)\n"], "not-pass"),
    "helper_with_a_space_in_its_name_4_1": ("04_at.ipynb", 4, "4.1", [
        "%%writefile \"bp helper.py\"\n" + RIGHT_BP, "%run \"bp helper.py\"\n"], "pass"),
}
SUBMISSIONS.update(ROUND23)


#: and honest searches with the chapter's own functions (or sacrebleu) inside a
#: construction, refused where they were judged: a construction's judge scores what the
#: learner built, so its world holds the scoring code (6.1's, whose answer it is, does not)
ROUND23_SEARCHES = {
    'search_ngrams_2_1': ('02_c.ipynb', 2, '2.1', [
        ('from itertools import product\n'
         'from bleu_lesson import ngrams\n'
         '\n'
         'def my_sentence():\n'
         '    target = {1: (8, 3), 2: (7, 3), 3: (6, 3), 4: (5, 3)}\n'
         '    for words in product(["red", "blue", "green"], repeat=8):\n'
         '        toks = list(words)\n'
         '        if all((len(ngrams(toks, n)), len(set(ngrams(toks, n))))\n'
         '               == target[n] for n in target):\n'
         '            return " ".join(toks)\n'),
    ], 'pass'),
    'search_means_5_1': ('05_d.ipynb', 5, '5.1', [
        ('from bleu_lesson.core import means\n'
         'def my_flip():\n'
         '    A = [1.0, 1.0, 1.0, 0.01]\n'
         '    for b in [k / 100 for k in range(1, 101)]:\n'
         '        B = [b] * 4\n'
         '        g = means.geometric_mean\n'
         '        if sum(B) / 4 < sum(A) / 4 and g(B, [0.25] * 4) > g(A, [0.25] * 4):\n'
         '            return A, B\n'),
    ], 'pass'),
    'search_sentence_bleu_6_2': ('06_af.ipynb', 6, '6.2', [
        ('from bleu_lesson import sentence_bleu\n'
         'def my_lowering_case():\n'
         '    cand = "we will visit the old castle"\n'
         '    refs = ["we will visit"]\n'
         '    for extra in ["castle is something else entirely here",\n'
         '                  "the castle stands on a green hill"]:\n'
         '        a, b = sentence_bleu(cand, refs), sentence_bleu(cand, refs + [extra])\n'
         '        if b.score < a.score and any(x > y for x, y in zip(b.matches, a.matches)):\n'
         '            return cand, refs, extra\n'),
    ], 'pass'),
    'search_corpus_bleu_7_1': ('07_c.ipynb', 7, '7.1', [
        ('from bleu_lesson import corpus_bleu, sentence_bleu\n'
         'LONG = "The committee will publish its final report on the new railway next spring ."\n'
         'def both(refs, hyps):\n'
         '    c = corpus_bleu(hyps, [[r] for r in refs]).score\n'
         '    m = sum(sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)) / len(hyps)\n'
         '    return c, m\n'
         'def my_opposite_rankings():\n'
         '    refs = ["Thank you !", LONG]\n'
         '    for a_short in ["Hello there .", "Many thanks .", "Thanks a lot !"]:\n'
         '        A = [a_short, LONG]\n'
         '        B = ["Thank you !",\n'
         '             "The board is going to release a report about a railway in spring ."]\n'
         '        (ca, ma), (cb, mb) = both(refs, A), both(refs, B)\n'
         '        if ca > cb and mb > ma:\n'
         '            return {"references": refs, "A": A, "B": B}\n'),
    ], 'pass'),
    'search_sacrebleu_7_1': ('07_d.ipynb', 7, '7.1', [
        ('import sacrebleu\n'
         'LONG = "The committee will publish its final report on the new railway next spring ."\n'
         'def both(refs, hyps):\n'
         '    c = sacrebleu.corpus_bleu(hyps, [refs]).score\n'
         '    m = sum(sacrebleu.sentence_bleu(h, [r]).score\n'
         '            for h, r in zip(hyps, refs)) / len(hyps)\n'
         '    return c, m\n'
         'def my_opposite_rankings():\n'
         '    refs = ["Thank you !", LONG]\n'
         '    for a_short in ["Hello there .", "Many thanks .", "Thanks a lot !"]:\n'
         '        A = [a_short, LONG]\n'
         '        B = ["Thank you !",\n'
         '             "The board is going to release a report about a railway in spring ."]\n'
         '        (ca, ma), (cb, mb) = both(refs, A), both(refs, B)\n'
         '        if ca > cb and mb > ma:\n'
         '            return {"references": refs, "A": A, "B": B}\n'),
    ], 'pass'),
    'tokenizers_inside_1_1': ('01_c.ipynb', 1, '1.1', [
        ('try:\n'
         '    from bleu_lesson.core.tokenizers import tokenize\n'
         'except ImportError:\n'
         '    tokenize = None\n'),
        ('from collections import Counter\n'
         'def p1(cand, ref, name):\n'
         '    from bleu_lesson.core.tokenizers import tokenize\n'
         '    c, r = tokenize(cand, name), tokenize(ref, name)\n'
         '    return sum((Counter(c) & Counter(r)).values()) / len(c)\n'
         '\n'
         'def my_tokenizer_pairs():\n'
         '    options = [("今天气温是35度。", "今天气温是36度。"),\n'
         '               ("房间号是305。", "房间号是306。")]\n'
         '    best = next(p for p in options if p1(*p, "char") > p1(*p, "zh"))\n'
         '    return {"seed_beats_13a": ("Hello World", "hello world"),\n'
         '            "13a_beats_seed": ("Good morning", "Good morning!"),\n'
         '            "char_beats_zh": best}\n'),
    ], 'pass'),
    # the library's sentence_bleu is 6.1's answer: in the same notebook as a 6.2 search
    # with it, 6.1 is judged in a world without it
    "library_bleu_for_6_1_beside_a_6_2_search": ("06_ag.ipynb", 6, "6.1", [
        "from bleu_lesson import sentence_bleu\n"
        "def my_lowering_case():\n"
        "    return ('we will visit the old castle', ['we will visit'],\n"
        "            str(sentence_bleu('a b', ['a b']).score))\n",
        "def my_bleu(candidate, references):\n"
        "    return sentence_bleu(candidate, references, tokenizer='none', lowercase=True,\n"
        "                         smoothing='none', effective_order=False).score\n"], "not-pass"),
}
SUBMISSIONS.update(ROUND23_SEARCHES)


#: a twenty-fourth hostile review (no fake pass): honest answers refused: 6.2 searched
#: with sacrebleu's sentence_bleu (the chapter imports sacrebleu; its task names sacrebleu's
#: defaults), and 8.2's signature in sacrebleu's short form
ROUND24 = {
    "search_with_sacrebleu_6_2": ("06_ah.ipynb", 6, "6.2", [
        "import sacrebleu\n"
        "def my_lowering_case():\n"
        "    candidate = 'my friend walked to the old market this morning'\n"
        "    references = ['my friend walked to the old market']\n"
        "    words = candidate.split()\n"
        "    for k in range(1, len(words)):\n"
        "        for n in range(len(words) + 1, len(words) + 8):\n"
        "            extra = ' '.join(words[-k:] + ['zz%d' % i for i in range(n - k)])\n"
        "            before = sacrebleu.sentence_bleu(candidate, references)\n"
        "            after = sacrebleu.sentence_bleu(candidate, references + [extra])\n"
        "            if any(a > b for a, b in zip(after.counts, before.counts)) \\\n"
        "                    and after.score < before.score:\n"
        "                return (candidate, references, extra)\n"], "pass"),
    "short_signature_8_2": ("08_g.ipynb", 8, "8.2", [
        FORENSICS_GIVENS,
        "def my_forensics():\n"
        "    bleu = sacrebleu.BLEU(lowercase=True)\n"
        "    bleu.corpus_score(list(FORENSICS_HYPS), [list(FORENSICS_REFS)])\n"
        "    return {'knob': 'case', 'signature': bleu.get_signature().format(short=True)}\n"],
        "pass"),
}
SUBMISSIONS.update(ROUND24)


def _notebook(chapter: int | None, cells: list[str]) -> dict:
    meta = {"bleu_lesson": {"chapter": f"{chapter:02d}"}} if chapter is not None else {}
    return {"nbformat": 4, "nbformat_minor": 5,
            "metadata": {**meta,
                         "kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"}},
            "cells": [{"cell_type": "markdown", "id": f"c{k}", "metadata": {}, "source": s[4:]}
                      if s.startswith("<md>") else
                      {"cell_type": "code", "id": f"c{k}", "metadata": {}, "outputs": [],
                       "execution_count": None, "source": s} for k, s in enumerate(cells)]}


@pytest.fixture(scope="module")
def rows(tmp_path_factory) -> dict[str, dict[str, course.Row]]:
    folder = tmp_path_factory.mktemp("attacks")
    paths, names = [], []
    for name, (file, chapter, _, cells, _) in SUBMISSIONS.items():
        sub = folder / name
        sub.mkdir()
        path = sub / file
        path.write_text(json.dumps(_notebook(chapter, cells)), encoding="utf-8")
        paths.append(path)
        names.append(name)
    found = course.check_submissions(paths, timeout=60, jobs=2)
    out: dict[str, dict[str, course.Row]] = {n: {} for n in names}
    for row in found:
        out[Path(row.submission).parent.name][row.exercise] = row
    return out


@pytest.mark.parametrize("name", SUBMISSIONS)
def test_attack_gets_no_pass_and_honest_work_passes(rows, name):
    _, _, exercise, _, expected = SUBMISSIONS[name]
    row = rows[name][exercise]
    if expected == "pass":
        assert row.status == "pass", (name, row)
    else:
        assert row.status in ("fail", "error", "not-done", "timeout"), (name, row)


def test_a_renamed_notebook_still_has_a_row_for_each_exercise(rows):
    """4.2 was deleted along with the chapter's name and metadata: it still has a row."""
    got = rows["renamed_without_metadata"]
    assert sorted(got) == ["4.1", "4.2"]
    assert got["4.2"].status == "not-done"
    assert "judged as chapter 04 from its content" in got["4.1"].detail


def test_a_notebook_of_no_known_chapter_is_an_error_that_says_so(rows):
    row = rows["nothing_to_tell_the_chapter"]["-"]
    assert row.status == "error" and "cannot tell which chapter" in row.detail


def test_the_package_copy_the_attacks_name_is_real():
    """The attacks aim at files that exist outside the sandbox (else they prove nothing)."""
    assert (PACKAGE / "core" / "brevity.py").is_file()
    assert Path(VENV_PYTHON).exists()



def test_no_forged_reply_counts(rows):
    """Only the judge's own reply counts: the forged one (right values) is not a pass."""
    for name in ("forged_reply_then_exit", "forged_reply_then_go_on"):
        row = rows[name]["4.1"]
        assert row.status in ("fail", "error"), (name, row)
        assert "通过" not in row.detail, (name, row)


def test_text_the_submission_chose_is_shown_only_quoted(rows):
    row = rows["forged_status_in_exception"]["4.1"]
    assert row.status == "error"
    assert "\n" not in row.detail and repr(FORGED_MESSAGE) in row.detail


def test_a_spinning_cell_is_stopped_by_the_per_cell_limit(rows):
    row = rows["cell_spinning_cpu"]["4.1"]
    assert row.status == "timeout"
    assert "cell 0 did not finish within its time" in row.detail


def test_the_library_tau_is_absent_where_10_1_is_judged(rows):
    for name in ("library_tau_10_1", "library_tau_value_10_1", "scipy_tau_10_1",
                 "subprocess_tau_10_1"):
        # a search that fails at the cell leaves my_tau undefined there: not done
        row = rows[name]["10.1"]
        assert row.status in ("fail", "error", "not-done"), (name, row)
    assert rows["honest_tau"]["10.1"].status == "pass"


def test_the_cells_process_cannot_reach_the_judges_channel(rows):
    """The judge is non-dumpable: its /proc/PID/fd, mem and environ are closed to the
    process that runs the cells (same uid), whose own stdout is /dev/null and which
    cannot start a process."""
    detail = rows["probe_the_judge"]["4.1"].detail
    assert "fd:PermissionError" in detail and "mem:PermissionError" in detail
    assert "environ:PermissionError" in detail and "stdout:reached" in detail
    assert "fork:BlockingIOError" in detail  # EAGAIN: RLIMIT_NPROC, not one more process
    assert ":reached" not in detail.replace("stdout:reached", "")


def test_8_2_is_judged_where_sacrebleu_is_and_the_judge_is_not(rows):
    """The notebook's way (re-score with sacrebleu) passes 8.2; the judge imported as an
    oracle and a forged kernel reply do not; in the same notebook, 8.1's world holds
    sacrebleu too (a search for a flattering layout with it is honest work, issue 20,
    round 21), so an 8.1 answer that needs sacrebleu to work passes."""
    assert rows["honest_forensics_8_2"]["8.2"].status == "pass"
    assert rows["honest_forensics_8_2"]["8.1"].status == "pass"
    assert rows["forensics_oracle_of_the_judge"]["8.2"].status == "fail"
    forged = rows["forensics_forged_text_plain"]["8.2"]
    assert forged.status == "fail" and "46.54" in forged.detail  # its own answer, judged


def test_one_unreadable_value_or_protocol_break_still_gives_every_row(rows):
    """10**400 and -(10**4000) are simply wrong (a row each, not one checker error), and a
    kernel that writes raw bytes on its sockets gets an error row for each exercise."""
    huge = rows["huge_ints_4"]
    assert sorted(huge) == ["4.1", "4.2"]
    assert huge["4.1"].status == "fail" and huge["4.2"].status == "fail"
    raw = rows["raw_bytes_on_the_kernels_fds"]
    assert sorted(raw) == ["4.1", "4.2"]
    assert all(r.status == "error" and "Jupyter protocol" in r.detail for r in raw.values())


def test_a_fraction_passes_as_in_the_notebook(rows):
    from fractions import Fraction

    from bleu_lesson.teaching import exercises

    ns: dict = {}
    exec("from fractions import Fraction\n" + RIGHT_ACC.replace(
        "return right / judged", "return Fraction(int(right), judged)"), ns)
    assert isinstance(ns["my_pairwise_accuracy"]({"a": 2, "b": 1}, {"a": 1, "b": 0}), Fraction)
    assert exercises.run("10.2", ns["my_pairwise_accuracy"]).status == "pass"
    assert rows["honest_accuracy_fraction"]["10.2"].status == "pass"


def test_honest_numpy_answers_are_judged_as_in_the_notebook(rows):
    """numpy exists where answers are judged: the honest numpy answers pass there as in
    the notebook (np.float64 and np.int64 results too), and a wrong rule written with
    numpy still fails."""
    for name in ("numpy_values_5_1", "numpy_geomean_6_1", "numpy_sort_9_1",
                 "numpy_sign_10_2"):
        exercise = NUMPY[name][2]
        assert rows[name][exercise].status == "pass", (name, rows[name][exercise])
    assert rows["numpy_scalars_4"]["4.1"].status == "pass", rows["numpy_scalars_4"]
    assert rows["numpy_scalars_4"]["4.2"].status == "pass", rows["numpy_scalars_4"]
    assert rows["numpy_percentile_nearest_9_1"]["9.1"].status == "fail"


def test_an_ndarray_is_no_plain_value_in_the_notebook_or_the_check(rows):
    import numpy as np

    from bleu_lesson.teaching import exercises

    assert exercises.run("4.1", lambda c, r: np.array(1.0)).status == "fail"
    row = rows["numpy_ndarray_4_1"]["4.1"]
    assert row.status == "fail" and "不是普通的值 (not a plain value)" in row.detail
    assert "a value of type numpy.ndarray" in row.detail


def test_numpys_folder_leads_to_no_key_where_answers_are_judged(rows):
    import numpy

    assert (Path(numpy.__file__).parents[1] / "sacrebleu").is_dir()  # in the kernel's reach
    row = rows["numpy_folder_to_sacrebleu_6_1"]["6.1"]
    assert row.status == "fail", row
    assert "a stand-in for a library or bleu_lesson module" in row.detail, row


def test_earlier_chapters_functions_are_there_where_6_1_is_judged(rows):
    """geometric_mean (chapter 5) and get_tokenizer (chapter 1) are 6.1's building blocks:
    an honest answer using them passes the check as it passes the notebook."""
    from bleu_lesson.teaching import exercises

    for name in ("geometric_mean_of_chapter_5_6_1", "tokenizer_of_chapter_1_6_1"):
        ns: dict = {}
        exec(ROUND16[name][3][0], ns)
        assert exercises.run("6.1", ns["my_bleu"]).status == "pass", name
        assert rows[name]["6.1"].status == "pass", (name, rows[name]["6.1"])


def test_a_row_says_when_the_answer_used_a_stand_in(rows):
    """The seed's tokenize is absent where 6.1 is judged (its module holds the answer):
    the row says the answer used a stand-in, not only that the score is wrong."""
    row = rows["seed_tokenize_6_1"]["6.1"]
    assert row.status == "fail", row
    assert "used a stand-in for something that does not exist where answers are judged" \
        in row.detail, row.detail
    assert "stand-in" not in rows["ties_by_set_order_6_1"]["6.1"].detail


def test_an_answer_in_a_time_cell_is_judged(rows):
    assert rows["time_magic_4_1"]["4.1"].status == "pass", rows["time_magic_4_1"]["4.1"]


def test_ipython_syntax_inside_python_is_python_where_answers_are_judged(rows):
    """What IPython runs as Python (a wrapped ``!=``, a ``%`` continuation, ``%time`` in a
    loop, a ``sorted?`` help line) defines the answer where it is judged too."""
    for name in ("wrapped_not_equal_10_2", "percent_on_a_continuation_line_9_1",
                 "time_in_a_loop_4_1", "help_line_9_1"):
        exercise = ROUND17[name][2]
        assert rows[name][exercise].status == "pass", (name, rows[name][exercise])


def test_a_not_done_row_names_the_answer_cells_error_first(rows):
    row = rows["answer_cell_error_named_first_4_1"]["4.1"]
    assert row.status == "not-done", row
    assert row.detail.index("cell 3: SyntaxError") < row.detail.index("cell 0:"), row.detail


def test_an_annotation_naming_nothing_fails_where_judged_as_in_the_notebook(rows):
    """In the notebook ``def f() -> Real:`` without ``Real`` raises NameError: the answer
    is not defined; where it is judged the checker's own ``from __future__`` must not
    postpone it."""
    row = rows["annotation_naming_nothing_4_1"]["4.1"]
    assert row.status == "not-done", row
    assert "NameError" in row.detail, row.detail


def test_a_not_done_row_numbers_cells_as_the_notebook_and_blames_the_likely_one(rows):
    """The row names notebook cells as the kernel's notes do (markdown cells count), the
    cell that runs code for the answer (a %run that failed) before the chapter's other
    failing cells, and a cell magic whose cell is not run where answers are judged."""
    detail = rows["not_done_names_the_failed_run_first_4_1"]["4.1"].detail
    assert rows["not_done_names_the_failed_run_first_4_1"]["4.1"].status == "not-done"
    assert "cell 5: FileNotFoundError" in detail, detail
    assert detail.index("cell 5:") < detail.index("cell 1:"), detail
    magic = rows["not_done_names_a_cell_magic_not_run_4_1"]["4.1"]
    assert magic.status == "not-done" and "cell 0: a cell magic ('%%script false')" in \
        magic.detail, magic.detail


def test_a_not_done_row_names_the_cell_ipython_runs_and_the_world_does_not(rows):
    """A helper written by a shell line or by get_ipython() is not there where answers are
    judged: the row names that cell, not only the import that then failed."""
    shell = rows["helper_written_by_a_shell_line_4_1"]["4.1"]
    assert shell.status == "not-done" and "cell 0: \"!printf" in shell.detail, shell.detail
    assert "is not run where answers are judged" in shell.detail
    magic = rows["helper_written_by_run_cell_magic_4_1"]["4.1"]
    assert magic.status == "not-done" and "'get_ipython()'" in magic.detail, magic.detail


def test_an_error_row_names_the_cell_that_should_have_made_what_the_answer_missed(rows):
    """A twenty-third hostile review: an answer that imports, when called, a helper that a
    %%bash cell wrote got "your answer raised ModuleNotFoundError" and nothing on why;
    the row names the cell the world does not run, and an exercise with no input says
    so as the notebook does."""
    row = rows["helper_by_bash_imported_inside_the_answer_4_1"]["4.1"]
    assert row.status == "error" and "ModuleNotFoundError" in row.detail, row.detail
    assert "cell 0: a cell magic ('%%bash')" in row.detail, row.detail
