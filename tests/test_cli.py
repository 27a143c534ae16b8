"""``python -m bleu_lesson`` and ``bleu-lesson score``.

The demo must print exactly what the seed's own code prints (the oracle in
``seed_oracle``); ``score`` must agree with sacrebleu called as a library, and every
user error must be one line on stderr with exit code 2.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys

import pytest
import sacrebleu
from notebook_tools import seed_skip_reason
from seed_oracle import SeedNotFound, load_seed_namespace

from bleu_lesson.__main__ import main
from bleu_lesson.cli.demo import seed_demo

HYPS = [
    "The cat is on the mat.",
    "There is a cat on the mat",
    "猫坐在垫子上。",
    "A dog barks loudly at the Postman!",
    "",
]
REF_A = [
    "The cat is sitting on the mat.",
    "There is a cat on the mat.",
    "猫坐在垫子上。",
    "The dog barks at the postman.",
    "Nothing here.",
]
REF_B = [
    "A cat is on the mat.",
    "a Cat is on the Mat",
    "一只猫坐在垫子上。",
    "A dog is barking loudly at the postman!",
    "",
]


@pytest.fixture(scope="module")
def seed_stdout() -> str:
    try:
        return load_seed_namespace()[1]
    except SeedNotFound as exc:
        pytest.skip(seed_skip_reason(exc))


def write(path, lines, end="\n"):
    path.write_text("".join(line + end for line in lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path):
    return {
        "hyp": write(tmp_path / "hyp.txt", HYPS),
        "a": write(tmp_path / "ref_a.txt", REF_A),
        "b": write(tmp_path / "ref_b.txt", REF_B),
    }


def run(*args, **kwargs):
    env = {**os.environ, "PYTHONUTF8": "1"}
    return subprocess.run([sys.executable, "-m", "bleu_lesson", *args], capture_output=True,
                          text=True, encoding="utf-8", env=env, timeout=120, **kwargs)


def assert_one_line_error(err: str, *fragments: str) -> None:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("bleu-lesson: error: "), err
    for fragment in fragments:
        assert fragment in lines[0]


# --- the seed's demo ------------------------------------------------------------------

def test_demo_subprocess_is_the_seed_codes_stdout(seed_stdout):
    proc = run()
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout == seed_stdout


def test_demo_in_process(seed_stdout, capsys):
    assert main([]) == 0
    out, err = capsys.readouterr()
    assert out == seed_stdout == seed_demo()
    assert err == ""


def test_demo_values_without_the_seed(capsys):
    assert main([]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "单参考BLEU: 0.0000",
        "  各阶精确率: ['1.000', '0.800', '0.500', '0.000']",
        "  长度惩罚: 0.8465",
        "多参考BLEU: 0.9036",
        "  各阶精确率: ['1.000', '1.000', '1.000', '0.667']",
        "  长度惩罚: 1.0000",
    ]


def test_help_exits_zero(capsys):
    assert main(["--help"]) == 0
    assert "score" in capsys.readouterr().out
    assert main(["score", "--help"]) == 0
    assert "--tokenize" in capsys.readouterr().out


# --- score: agreement with sacrebleu --------------------------------------------------

def score_json(capsys, *args) -> dict:
    assert main(["score", *args, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


@pytest.mark.parametrize("tokenize", ["13a", "zh", "intl", "char", "none"])
@pytest.mark.parametrize("lowercase", [False, True], ids=["cased", "lc"])
def test_corpus_score_matches_sacrebleu(files, capsys, tokenize, lowercase):
    args = [files["a"], files["b"], "-i", files["hyp"], "--tokenize", tokenize,
            "--width", "6"] + (["-lc"] if lowercase else [])
    record = score_json(capsys, *args)
    expected = sacrebleu.corpus_bleu(HYPS, [REF_A, REF_B], tokenize=tokenize,
                                     lowercase=lowercase)
    assert record["score"] == pytest.approx(expected.score, abs=5e-6)
    assert record["tok"] == tokenize
    assert record["case"] == ("lc" if lowercase else "mixed")
    assert record["nrefs"] == "2"


@pytest.mark.parametrize("smooth", ["none", "floor", "add-k", "exp"])
def test_smoothing_matches_sacrebleu(files, capsys, smooth):
    record = score_json(capsys, files["a"], "-i", files["hyp"], "--smooth", smooth,
                        "--width", "6")
    expected = sacrebleu.corpus_bleu(HYPS, [REF_A], smooth_method=smooth)
    assert record["score"] == pytest.approx(expected.score, abs=5e-6)


def test_smooth_value_and_order_match_sacrebleu(files, capsys):
    record = score_json(capsys, files["a"], "-i", files["hyp"], "--smooth", "floor",
                        "--smooth-value", "0.3", "--max-ngram-order", "3", "--width", "6")
    metric = sacrebleu.BLEU(smooth_method="floor", smooth_value=0.3, max_ngram_order=3)
    assert record["score"] == pytest.approx(metric.corpus_score(HYPS, [REF_A]).score, abs=5e-6)


def test_text_output_is_one_sacrebleu_style_line(files, capsys):
    assert main(["score", files["a"], files["b"], "-i", files["hyp"]]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    [line] = out.splitlines()
    expected = sacrebleu.corpus_bleu(HYPS, [REF_A, REF_B])
    name, rest = line.split(" = ", 1)
    assert name.startswith("BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|")
    assert rest.startswith(f"{expected.score:.2f} ")
    # sacrebleu's verbose part, precisions to one decimal, BP and ratio to three
    prec = "/".join(f"{p:.1f}" for p in expected.precisions)
    assert f" {prec} (BP = {expected.bp:.3f} ratio = {expected.ratio:.3f} " in rest
    assert rest.endswith(f"hyp_len = {expected.sys_len} ref_len = {expected.ref_len})")


def test_json_output(files, capsys):
    record = score_json(capsys, files["a"], files["b"], "-i", files["hyp"])
    expected = sacrebleu.corpus_bleu(HYPS, [REF_A, REF_B])
    assert record["name"] == "BLEU"
    assert record["score"] == round(expected.score, 2)
    assert record["signature"].startswith("nrefs:2|")
    assert record["verbose_score"].startswith(
        "/".join(f"{p:.1f}" for p in expected.precisions) + " (BP = ")
    for field in record["signature"].split("|"):
        key, value = field.split(":", 1)
        assert record[key] == value


def test_width(files, capsys):
    assert main(["score", files["a"], "-i", files["hyp"], "-w", "4"]) == 0
    score = capsys.readouterr().out.split(" = ", 1)[1].split()[0]
    assert len(score.split(".")[1]) == 4


def test_sentence_level_matches_sacrebleu(files, capsys):
    assert main(["score", files["a"], files["b"], "-i", files["hyp"], "--sentence-level"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == len(HYPS)
    metric = sacrebleu.BLEU(effective_order=True)
    for line, hyp, a, b in zip(lines, HYPS, REF_A, REF_B, strict=True):
        assert "|eff:yes|" in line
        expected = metric.sentence_score(hyp, [a, b]).score
        assert float(line.split(" = ", 1)[1].split()[0]) == pytest.approx(expected, abs=0.005)


def test_sentence_level_json_is_one_object_per_line(files, capsys):
    assert main(["score", files["a"], "-i", files["hyp"], "-sl", "-f", "json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(HYPS)
    assert all("score" in json.loads(line) for line in lines)


def test_lines_are_read_like_sacrebleus_cli(tmp_path, capsys):
    # CRLF endings, trailing blanks, no final newline, gzip: sacrebleu strips line.rstrip()
    hyps = ["the cat  ", "a mat\t"]
    refs = ["the cat sat", "on a mat"]
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes("\r\n".join(hyps).encode("utf-8"))  # no final newline
    ref = tmp_path / "ref.txt.gz"
    with gzip.open(ref, "wt", encoding="utf-8") as f:
        f.write("".join(r + "\n" for r in refs))
    record = score_json(capsys, str(ref), "-i", str(hyp), "--width", "6")
    expected = sacrebleu.corpus_bleu([h.rstrip() for h in hyps], [refs])
    assert record["score"] == pytest.approx(expected.score, abs=5e-6)


def test_empty_stdin(tmp_path):
    proc = run("score", write(tmp_path / "ref.txt", REF_A), input="")
    assert proc.returncode == 2
    assert_one_line_error(proc.stderr, "standard input is empty")


def test_dash_is_stdin_only_for_the_hypothesis(files, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["score", "-", "-i", files["hyp"]]) == 2
    assert_one_line_error(capsys.readouterr().err, "reference file '-' does not exist")


def test_hypothesis_from_stdin_pipe(tmp_path):
    ref = write(tmp_path / "ref.txt", REF_A)
    proc = run("score", ref, "-f", "json", input="".join(h + "\n" for h in HYPS))
    assert proc.returncode == 0, proc.stderr
    expected = sacrebleu.corpus_bleu(HYPS, [REF_A])
    assert json.loads(proc.stdout)["score"] == round(expected.score, 2)


def test_console_subprocess_score(files):
    proc = run("score", files["a"], files["b"], "-i", files["hyp"], "--tokenize", "zh")
    assert proc.returncode == 0, proc.stderr
    expected = sacrebleu.corpus_bleu(HYPS, [REF_A, REF_B], tokenize="zh")
    [line] = proc.stdout.splitlines()
    assert line.split(" = ", 1)[1].startswith(f"{expected.score:.2f} ")


# --- score: errors --------------------------------------------------------------------

def test_missing_reference_file(files, tmp_path, capsys):
    missing = str(tmp_path / "nope.txt")
    assert main(["score", missing, "-i", files["hyp"]]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert_one_line_error(err, "reference file", "nope.txt", "does not exist")


def test_missing_hypothesis_file(files, tmp_path, capsys):
    assert main(["score", files["a"], "-i", str(tmp_path / "nope.txt")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert_one_line_error(err, "hypothesis file", "nope.txt", "does not exist")


def test_line_count_mismatch(files, tmp_path, capsys):
    short = write(tmp_path / "x.txt", REF_A[:3])
    assert main(["score", files["a"], short, "-i", files["hyp"]]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert_one_line_error(err)
    assert err == (f"bleu-lesson: error: reference file {short!r} has 3 lines "
                   f"but the hypothesis file has {len(HYPS)}\n")


def test_unknown_tokenizer(files, capsys):
    assert main(["score", files["a"], "-i", files["hyp"], "--tokenize", "moses"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert_one_line_error(err, "--tokenize", "'moses'", "13a")


def test_directory_and_bad_encoding(files, tmp_path, capsys):
    assert main(["score", str(tmp_path), "-i", files["hyp"]]) == 2
    assert_one_line_error(capsys.readouterr().err, "is a directory")
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9\n".encode("latin-1"))
    one = write(tmp_path / "one.txt", ["cafe"])
    assert main(["score", one, "-i", str(bad)]) == 2
    assert_one_line_error(capsys.readouterr().err, "not valid UTF-8")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="as root every file is readable: run pytest as a normal user to "
                           "check a real chmod 000 file (test_permission_error_is_reported "
                           "checks the message as root)")
def test_unreadable_file(files, tmp_path, capsys):
    locked = tmp_path / "locked.txt"
    write(locked, REF_A)
    locked.chmod(0)
    try:
        assert main(["score", str(locked), "-i", files["hyp"]]) == 2
    finally:
        locked.chmod(0o600)
    assert_one_line_error(capsys.readouterr().err, "permission denied")


def test_permission_error_is_reported(files, monkeypatch, capsys):
    # works as root too: any PermissionError from open() becomes one line
    import builtins

    import bleu_lesson.cli.score as cli  # where the score command reads its files

    def deny(path, *args, **kwargs):
        if str(path).endswith("ref_a.txt"):
            raise PermissionError(13, "Permission denied", str(path))
        return builtins.open(path, *args, **kwargs)

    monkeypatch.setattr(cli, "open", deny, raising=False)
    assert main(["score", files["a"], "-i", files["hyp"]]) == 2
    assert_one_line_error(capsys.readouterr().err, "ref_a.txt", "permission denied")


@pytest.mark.parametrize(("extra", "fragment"), [
    (["--smooth", "exp", "--smooth-value", "2"], "--smooth-value"),
    (["--smooth", "floor", "--smooth-value", "-1"], "--smooth-value"),
    (["--max-ngram-order", "0"], "--max-ngram-order"),
    (["--max-ngram-order", "four"], "--max-ngram-order"),
    (["--width", "-1"], "--width"),
    (["--format", "xml"], "--format"),
    (["--smooth", "laplace"], "--smooth"),
    (["--no-such-option"], "--no-such-option"),
], ids=lambda v: v if isinstance(v, str) else " ".join(v))
def test_bad_options(files, capsys, extra, fragment):
    assert main(["score", files["a"], "-i", files["hyp"], *extra]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert_one_line_error(err, fragment)


def test_empty_hypothesis_file(tmp_path, capsys):
    empty = write(tmp_path / "empty.txt", [])
    assert main(["score", empty, "-i", empty]) == 2
    assert_one_line_error(capsys.readouterr().err, "empty")


def test_unknown_command_and_no_reference(capsys):
    assert main(["grade"]) == 2
    assert_one_line_error(capsys.readouterr().err, "'grade'")
    assert main(["score"]) == 2
    assert_one_line_error(capsys.readouterr().err, "REF")


@pytest.mark.parametrize("case", ["missing-ref", "mismatch", "tokenizer"])
def test_errors_in_a_real_process(files, tmp_path, case):
    args = {
        "missing-ref": [str(tmp_path / "nope.txt"), "-i", files["hyp"]],
        "mismatch": [write(tmp_path / "x.txt", REF_A[:2]), "-i", files["hyp"]],
        "tokenizer": [files["a"], "-i", files["hyp"], "-tok", "moses"],
    }[case]
    proc = run("score", *args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert_one_line_error(proc.stderr)


# --- sacrebleu's command-line habits ------------------------------------------------------

def sacrebleu_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sacrebleu", *args], capture_output=True,
                          text=True, encoding="utf-8", timeout=300,
                          env={**os.environ, "PYTHONUTF8": "1"})


@pytest.mark.parametrize("width", [[], ["-w", "2"], ["-w", "0"]], ids=["default", "w2", "w0"])
def test_score_only_is_sacrebleus_b(files, capsys, width):
    # sacrebleu's CLI prints -b with its default width, 1: 33.3, not 33.32
    assert main(["score", files["a"], files["b"], "-i", files["hyp"], "-b", *width]) == 0
    out = capsys.readouterr().out
    theirs = sacrebleu_cli(files["a"], files["b"], "-i", files["hyp"], "-b", *width)
    assert theirs.returncode == 0, theirs.stderr
    assert out == theirs.stdout
    decimals = int(width[1]) if width else 1
    assert out == f"{sacrebleu.corpus_bleu(HYPS, [REF_A, REF_B]).score:.{decimals}f}\n"


# --- sacrebleu's -l, and the two traps it scores without a word ----------------------

def signature_without_version(signature: str) -> str:
    return "|".join(f for f in signature.split("|") if not f.startswith("version:"))


@pytest.mark.wmt22
def test_language_pair_is_sacrebleus_on_wmt22_en_zh(wmt22_dir):
    ref = str(wmt22_dir / "generaltest2022.en-zh.ref.A.zh")
    hyp = str(wmt22_dir / "generaltest2022.en-zh.hyp.Online-A.zh")
    theirs = sacrebleu_cli(ref, "-i", hyp, "-l", "en-zh", "-f", "json", "-w", "4")
    assert theirs.returncode == 0, theirs.stderr
    expected = json.loads(theirs.stdout)
    ours = run("score", ref, "-i", hyp, "-l", "en-zh", "-f", "json", "-w", "4")
    assert ours.returncode == 0, ours.stderr
    assert ours.stderr == ""  # -l picked zh: no CJK warning
    record = json.loads(ours.stdout)
    assert record["score"] == expected["score"]
    assert record["verbose_score"] == expected["verbose_score"]
    assert signature_without_version(record["signature"]) == \
        signature_without_version(expected["signature"])
    assert "tok:zh" in record["signature"]
    # and -b prints what sacrebleu's -b prints, byte for byte
    b_theirs = sacrebleu_cli(ref, "-i", hyp, "-l", "en-zh", "-b")
    b_ours = run("score", ref, "-i", hyp, "-l", "en-zh", "-b")
    assert b_ours.stdout == b_theirs.stdout and b_ours.returncode == 0


@pytest.mark.wmt22
def test_chinese_under_13a_warns_once_on_wmt22(wmt22_dir):
    ref = str(wmt22_dir / "generaltest2022.en-zh.ref.A.zh")
    hyp = str(wmt22_dir / "generaltest2022.en-zh.hyp.Online-A.zh")
    proc = run("score", ref, "-i", hyp, "-b")
    assert proc.returncode == 0
    # the score is still sacrebleu's with its default tokenizer: a warning, not a refusal
    assert proc.stdout == sacrebleu_cli(ref, "-i", hyp, "-b").stdout
    [line] = proc.stderr.splitlines()
    assert line.startswith("bleu-lesson: warning: ") and "--tokenize zh" in line
    assert run("score", ref, "-i", hyp, "-b", "-q").stderr == ""


@pytest.mark.parametrize("pair, tok", [("en-zh", "zh"), ("zh-en", "13a"), ("en-de", "13a"),
                                       ("en-ZH", "13a")])  # sacrebleu: case-sensitive
def test_language_pair_picks_the_tokenizer_as_sacrebleu(files, capsys, pair, tok):
    metric = sacrebleu.BLEU(trg_lang=pair.split("-")[1])  # what sacrebleu's CLI does with -l
    assert metric.tokenizer_signature == tok  # sacrebleu's own choice
    record = score_json(capsys, files["a"], "-i", files["hyp"], "-l", pair, "--width", "6")
    assert record["tok"] == tok
    expected = metric.corpus_score(HYPS, [REF_A]).score
    assert record["score"] == pytest.approx(expected, abs=5e-6)


def test_tokenize_wins_over_language_pair(files, capsys):
    record = score_json(capsys, files["a"], "-i", files["hyp"], "-l", "en-zh", "-tok", "char")
    assert record["tok"] == "char"


def test_lc_is_still_lowercase_next_to_l(files, capsys):
    record = score_json(capsys, files["a"], "-i", files["hyp"], "-lc", "-l", "en-de")
    assert record["case"] == "lc"


@pytest.mark.parametrize("pair, fragment", [
    ("en", "-l/--language-pair must be SRC-TGT"),
    ("en-", "-l/--language-pair must be SRC-TGT"),
    ("en-ja", "--tokenize"),  # sacrebleu would use ja-mecab, which is not here
])
def test_bad_language_pair_is_one_line(files, capsys, pair, fragment):
    assert main(["score", files["a"], "-i", files["hyp"], "-l", pair]) == 2
    assert_one_line_error(capsys.readouterr().err, fragment)


def test_a_stray_tab_in_a_real_reference_is_no_reason_to_warn(tmp_path):
    """WMT22 zh-en reference B holds one tab (line 1364) among 1,875 lines: a reference, not
    a tab-separated file; the benchmark's run printed the warning for it."""
    hyp = write(tmp_path / "hyp.txt", HYPS[:4])
    refs = write(tmp_path / "ref.txt", [REF_A[0] + "\tstill one reference", *REF_A[1:4]])
    proc = run("score", refs, "-i", hyp, "-b")
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout == sacrebleu_cli(refs, "-i", hyp, "-b").stdout


def test_tab_in_a_reference_without_num_refs_warns(tmp_path):
    hyp = write(tmp_path / "hyp.txt", HYPS[:4])
    both = write(tmp_path / "refs.tsv", [f"{x}\t{y}" for x, y in zip(REF_A[:4], REF_B[:4])])
    proc = run("score", both, "-i", hyp, "-b")
    assert proc.returncode == 0
    # scored as sacrebleu scores it (one reference holding a tab), but not in silence
    assert proc.stdout == sacrebleu_cli(both, "-i", hyp, "-b").stdout
    [line] = proc.stderr.splitlines()
    assert line.startswith("bleu-lesson: warning: ")
    assert "line 1 holds a tab" in line and "--num-refs 2" in line
    assert run("score", both, "-i", hyp, "-b", "-q").stderr == ""
    assert run("score", both, "-i", hyp, "-b", "-nr", "2").stderr == ""
    assert run("score", both, "-i", hyp, "-b", "-nr", "1").stderr == ""  # said on purpose


def test_mostly_cjk_text_warns_unless_the_tokenizer_splits_it(tmp_path):
    zh = ["猫坐在垫子上。", "今天天气很好。", "我们去公园散步吧。"]
    ref = write(tmp_path / "ref.zh", zh)
    hyp = write(tmp_path / "hyp.zh", ["猫在垫子上。", "今天天气不错。", "我们去公园吧。"])
    proc = run("score", ref, "-i", hyp, "-b")
    assert proc.returncode == 0
    [line] = proc.stderr.splitlines()
    assert "tokenizer is 13a" in line and "--tokenize zh" in line
    for quiet in (["-tok", "zh"], ["-tok", "char"], ["-l", "en-zh"], ["-q"]):
        assert run("score", ref, "-i", hyp, "-b", *quiet).stderr == "", quiet
    # text that is mostly English with a little Chinese is no trap
    assert run("score", write(tmp_path / "en", REF_A), "-i",
               write(tmp_path / "en.hyp", HYPS), "-b").stderr == ""


def test_dev_zero_is_refused_in_one_line_within_the_memory_limit():
    import resource

    def limit():  # 2 GB of address space: the refusal comes after a few hundred MB
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    env = {**os.environ, "PYTHONUTF8": "1"}
    env.pop("BLEU_LESSON_MAX_INPUT_BYTES", None)
    proc = subprocess.run([sys.executable, "-m", "bleu_lesson", "score", "/dev/null", "-i",
                           "/dev/zero"], capture_output=True, text=True, env=env, timeout=120,
                          preexec_fn=limit)
    assert proc.returncode == 2
    assert_one_line_error(proc.stderr, "hypothesis file '/dev/zero' is larger than",
                          "score it in parts")


def test_input_budget_applies_to_stdin_and_files(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("the cat sat on the mat\n" * 1000, encoding="utf-8")  # 23,000 bytes
    env = {**os.environ, "PYTHONUTF8": "1", "BLEU_LESSON_MAX_INPUT_BYTES": "20000"}
    for args, kwargs in ((["-i", str(big)], {}), ([], {"input": big.read_text()})):
        proc = subprocess.run([sys.executable, "-m", "bleu_lesson", "score", str(big), *args],
                              capture_output=True, text=True, env=env, timeout=120, **kwargs)
        assert proc.returncode == 2
        assert_one_line_error(proc.stderr, "is larger than")
    env["BLEU_LESSON_MAX_INPUT_BYTES"] = "23000"  # exactly the size: read
    proc = subprocess.run([sys.executable, "-m", "bleu_lesson", "score", str(big), "-i",
                           str(big), "-b"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0 and proc.stdout == "100.0\n"


def test_num_refs_reads_one_tab_separated_file(tmp_path, capsys):
    # the last segment's reference B is empty: its tab would be stripped with the line's
    # trailing whitespace (sacrebleu does the same and stops), so leave that segment out
    hyp = write(tmp_path / "hyp.txt", HYPS[:4])
    a, b = write(tmp_path / "a.txt", REF_A[:4]), write(tmp_path / "b.txt", REF_B[:4])
    both = write(tmp_path / "refs.tsv", [f"{x}\t{y}" for x, y in zip(REF_A[:4], REF_B[:4])])
    assert main(["score", both, "--num-refs", "2", "-i", hyp]) == 0
    tabbed = capsys.readouterr().out
    assert main(["score", a, b, "-i", hyp]) == 0
    assert tabbed == capsys.readouterr().out
    assert "nrefs:2" in tabbed
    theirs = sacrebleu_cli(both, "-nr", "2", "-i", hyp, "-b")
    assert theirs.returncode == 0, theirs.stderr
    assert main(["score", both, "-nr", "2", "-i", hyp, "-b"]) == 0
    assert capsys.readouterr().out == theirs.stdout


def test_num_refs_errors(files, tmp_path, capsys):
    both = write(tmp_path / "refs.tsv", [f"{a}\t{b}" for a, b in zip(REF_A, REF_B)])
    assert main(["score", both, "--num-refs", "3", "-i", files["hyp"]]) == 2
    assert_one_line_error(capsys.readouterr().err, "line 1 has 2 tab-separated fields",
                          "--num-refs is 3")
    assert main(["score", files["a"], files["b"], "--num-refs", "2", "-i", files["hyp"]]) == 2
    assert_one_line_error(capsys.readouterr().err, "2 reference files were given")
    assert main(["score", both, "--num-refs", "0", "-i", files["hyp"]]) == 2
    assert_one_line_error(capsys.readouterr().err, "--num-refs must be at least 1")


@pytest.fixture
def three_systems(tmp_path):
    """A baseline and two systems of 120 segments (enough for a meaningful test)."""
    import random

    rng = random.Random(3)
    words = "the a cat dog sat on mat is was there and of to in it".split()
    refs = [" ".join(rng.choice(words) for _ in range(rng.randint(4, 14))) for _ in range(120)]

    def noisy(p):
        return [" ".join(w if rng.random() > p else rng.choice(words) for w in r.split())
                for r in refs]
    paths = [write(tmp_path / "ref.txt", refs)]
    for name, p in (("base.txt", 0.3), ("close.txt", 0.31), ("far.txt", 0.6)):
        paths.append(write(tmp_path / name, noisy(p)))
    return paths


def test_several_systems_without_a_test_print_sacrebleus_table(three_systems, capsys):
    ref, base, close, far = three_systems
    args = [ref, "-i", base, close, far, "-w", "2"]
    assert main(["score", *args]) == 0
    ours = capsys.readouterr().out
    theirs = sacrebleu_cli(*args, "-f", "text")
    cut = "-----------------\nMetric signatures"
    assert ours.split(cut)[0] == theirs.stdout.split(cut)[0]
    assert ours.count("│") >= 12  # a table, one row per system


@pytest.mark.parametrize("test,n", [("--paired-bs", "300"), ("--paired-ar", "300")])
def test_paired_tests_print_sacrebleus_table(three_systems, capsys, test, n):
    ref, base, close, far = three_systems
    count = "--paired-bs-n" if test == "--paired-bs" else "--paired-ar-n"
    args = [ref, "-i", base, close, far, test, count, n, "-w", "2"]
    assert main(["score", *args]) == 0
    ours = capsys.readouterr().out
    theirs = sacrebleu_cli(*args, "-f", "text")
    assert theirs.returncode == 0, theirs.stderr
    # the table and the notes are sacrebleu's, character for character (same p-values,
    # means and intervals), up to the signatures, which name each library's version
    cut = "-----------------\nMetric signatures"
    unmarked = ("highlighted in red.", "not marked.")  # sacrebleu colours them on a terminal
    assert ours.split(cut)[0] == theirs.stdout.split(cut)[0].replace(*unmarked)
    assert f"|{test[-2:]}:{n}|seed:12345|" in ours
    assert "(p = " in ours and "Baseline: " + base in ours


def test_paired_json_is_sacrebleus(three_systems, capsys):
    ref, base, close, far = three_systems
    args = [ref, "-i", base, close, far, "--paired-bs", "--paired-bs-n", "200"]
    assert main(["score", *args, "-f", "json"]) == 0
    ours = json.loads(capsys.readouterr().out)
    theirs = json.loads(sacrebleu_cli(*args, "-f", "json").stdout)
    assert [r["system"] for r in ours] == [r["system"] for r in theirs]
    for a, b in zip(ours, theirs):
        assert a["BLEU"]["p_value"] == b["BLEU"]["p_value"]
        for key in ("score", "mean", "ci"):
            assert a["BLEU"][key] == pytest.approx(b["BLEU"][key], abs=1e-4), key


def test_paired_test_errors(files, capsys):
    assert main(["score", files["a"], "-i", files["hyp"], "--paired-bs"]) == 2
    assert_one_line_error(capsys.readouterr().err, "--paired-bs", "at least one system")
    assert main(["score", files["a"], "-i", files["hyp"], files["hyp"], "--paired-bs",
                 "--paired-ar"]) == 2
    assert_one_line_error(capsys.readouterr().err, "not allowed with")
    assert main(["score", files["a"], "-i", files["hyp"], files["hyp"], "--paired-ar",
                 "--seed", "-3"]) == 2
    assert_one_line_error(capsys.readouterr().err, "--seed", "non-negative")


def test_closed_pipe_exits_quietly(tmp_path):
    lines = [f"segment {i} of a long file" for i in range(20000)]
    ref = write(tmp_path / "ref.txt", lines)
    proc = subprocess.Popen([sys.executable, "-m", "bleu_lesson", "score", ref, "-i", ref,
                             "--sentence-level"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    first = proc.stdout.readline()  # like `| head -1`: read one line, then go away
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert first.startswith(b"BLEU")
    assert err == ""
    assert proc.returncode == 141


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"},
                                 {"LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0"}])
def test_ascii_only_terminal_gets_no_traceback(env):
    proc = subprocess.run([sys.executable, "-m", "bleu_lesson"], capture_output=True,
                          env={**os.environ, "PYTHONUTF8": "0", **env}, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    out = proc.stdout.decode("ascii", errors="strict") if env.get("PYTHONIOENCODING") else \
        proc.stdout.decode("utf-8")
    assert "BLEU: 0.9036" in out
    if env.get("PYTHONIOENCODING"):
        assert "\\u5355\\u53c2\\u8003BLEU: 0.0000" in out  # 单参考, escaped


def test_memory_error_is_one_line(files, monkeypatch, capsys):
    from bleu_lesson.core import bleu

    def out_of_memory(self, candidates):
        raise MemoryError

    monkeypatch.setattr(bleu.BleuScorer, "score", out_of_memory)
    assert main(["score", files["a"], "-i", files["hyp"]]) == 2
    assert_one_line_error(capsys.readouterr().err, "out of memory")


def test_missing_library_gives_a_hint(files, monkeypatch, capsys):
    from bleu_lesson.core import bleu

    def no_sacrebleu(self, candidates):
        raise ModuleNotFoundError("No module named 'sacrebleu'", name="sacrebleu")

    monkeypatch.setattr(bleu.BleuScorer, "score", no_sacrebleu)
    assert main(["score", files["a"], "-i", files["hyp"]]) == 2
    assert_one_line_error(capsys.readouterr().err, "sacrebleu is not installed", "make venv",
                          ".venv/bin/bleu-lesson")


@pytest.mark.parametrize("which", ["hyp", "ref"])
def test_truncated_gzip_is_one_line_and_exit_2(tmp_path, which):
    lines = [f"line {i} " + "x" * (i % 37) + str(i * 7919) for i in range(3000)]
    plain = write(tmp_path / "plain.txt", lines)
    full = gzip.compress((("\n".join(lines)) + "\n").encode())
    (tmp_path / "cut.gz").write_bytes(full[: len(full) // 2])
    cut = str(tmp_path / "cut.gz")
    args = [plain, "-i", cut] if which == "hyp" else [cut, "-i", plain]
    proc = run("score", *args)
    assert proc.returncode == 2
    assert_one_line_error(proc.stderr, "truncated gzip file", "cut.gz")


def test_a_python_without_sacrebleu_gets_a_hint_not_a_traceback(files):
    # as under a system Python without the course's packages: sacrebleu cannot be imported
    # (13a and zh are the course's own; "intl" is still sacrebleu's)
    code = ("import sys; sys.modules['sacrebleu'] = None; "
            "from bleu_lesson.__main__ import main; "
            f"sys.exit(main(['score', {files['a']!r}, '-i', {files['hyp']!r}, '-tok', 'intl']))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          encoding="utf-8", timeout=120)
    assert proc.returncode == 2
    assert_one_line_error(proc.stderr, "sacrebleu is not installed", "make venv")


# --- make data offline: every missing file, and where it comes from -------------------

def test_data_offline_lists_every_missing_file_and_its_source(tmp_path, wmt22_dir):
    import socket

    with socket.socket() as probe:  # a port nothing listens on: offline
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k != "BLEU_LESSON_WMT22_DIR"}
    env.update({"XDG_CACHE_HOME": str(tmp_path / "empty"), "BLEU_LESSON_DATA_URL": base,
                "PYTHONUTF8": "1"})
    proc = subprocess.run([sys.executable, "-m", "bleu_lesson", "data", "-q"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert_one_line_error(proc.stderr, "Offline?")
    # the oracle: the files of a real WMT22 folder, not the registry the command reads
    expected = {p.relative_to(wmt22_dir).as_posix() for p in wmt22_dir.rglob("*")
                if p.is_file() and p.name != "README.md"}
    listed = {}
    for line in proc.stdout.splitlines()[1:]:
        name, _, url = line.strip().partition("  <-  ")
        listed[name] = url
    assert set(listed) == expected
    for name, url in listed.items():  # each from the pinned source, under its own name
        assert url.startswith(base + "/") and url.endswith("/" + name.split("/")[-1]), url
