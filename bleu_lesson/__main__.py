"""``python -m bleu_lesson``: the seed's demo, and scoring files like sacrebleu's CLI.

With no arguments it prints the seed chapter's two examples in the seed's own format,
with the values its code really gives (not the chapter's claimed 0.6065 and 0.7711)::

    $ python -m bleu_lesson
    单参考BLEU: 0.0000
    ...

``score`` scores a hypothesis file against one or more reference files, each a
reference stream (line i is the reference of segment i), like ``sacrebleu REF -i HYP``::

    $ python -m bleu_lesson score ref_a.txt ref_b.txt -i hyp.txt --tokenize zh

Errors (missing or unreadable files, different line counts, bad options) print one
line on stderr and exit with code 2.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from bleu_lesson.analysis.significance import (
    _estimate_ci,
    bootstrap_indices,
    paired_approximate_randomization_stats,
    paired_bootstrap_stats,
    resample_scores,
)
from bleu_lesson.core import seed
from bleu_lesson.core.bleu import BleuOptions, BleuResult, BleuScorer, references_from_streams
from bleu_lesson.core.smoothing import SMOOTHING, SMOOTHING_METHODS
from bleu_lesson.core.stats import sum_stats
from bleu_lesson.core.tokenizers import TOKENIZERS
from bleu_lesson.data.datasets import (
    DATASETS,
    SEED_CANDIDATE,
    SEED_REFERENCE,
    SEED_REFERENCES,
    DatasetNotFoundError,
    dataset,
    fetch_dataset,
    get_data_hint,
    looked_in,
    missing_files,
)
from bleu_lesson.grading import course
from bleu_lesson.grading.course import (
    NO_DATA,
    Row,
    check_report_path,
    shown,
    summary_table,
    write_report,
    write_student_copies,
)
from bleu_lesson.grading.sandbox import (
    Limits,
    _descendants,
    backend,
    close_all,
    describe,
    refusal,
)
from bleu_lesson.teaching.chapters import chapter_id, registry

__all__ = ["main", "seed_demo"]

PROG = "bleu-lesson"



class CLIError(Exception):
    """A user error: reported as one line on stderr, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is a single line on stderr (and exit code 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{PROG}: error: {message} (see '{self.prog} --help')\n")


# --- the seed's demo ------------------------------------------------------------------

def _seed_lines(label: str, candidate: str, references: list[str]) -> list[str]:
    bleu, details = seed.compute_bleu(candidate, references)
    return [
        f"{label}BLEU: {bleu:.4f}",
        f"  各阶精确率: {[f'{p:.3f}' for p in details['precisions']]}",
        f"  长度惩罚: {details['brevity_penalty']:.4f}",
    ]


def seed_demo() -> str:
    """What the seed's ``bleu_score.py`` prints, computed with ``bleu_lesson.core.seed``."""
    # here, not at the top: datasets imports the download machinery (urllib, ssl, …),
    # which ``score`` does not need

    lines = _seed_lines("单参考", SEED_CANDIDATE, SEED_REFERENCE)
    lines += _seed_lines("多参考", SEED_CANDIDATE, SEED_REFERENCES)
    return "\n".join(lines) + "\n"


# --- score ----------------------------------------------------------------------------

#: The share of the memory this machine has free that one input file may take: the
#: lines of a file take about four times its size once decoded and split (bytes, text,
#: lines), so a file above a quarter of that budget could not be scored anyway.
_MEMORY_SHARE = 8
_CHUNK = 1 << 20


def _input_budget() -> int:
    """The most bytes one input file may have: a share of the free memory.

    The free memory is the smaller of ``MemAvailable`` (Linux) and the address-space
    limit (``ulimit -v``); ``BLEU_LESSON_MAX_INPUT_BYTES`` overrides the result.
    """
    override = os.environ.get("BLEU_LESSON_MAX_INPUT_BYTES")
    if override:
        try:
            return max(int(override), 0)
        except ValueError:
            raise CLIError("BLEU_LESSON_MAX_INPUT_BYTES must be a number of bytes, "
                           f"got {override!r}") from None
    free = []
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    free.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            free.append(soft)
    except (ImportError, ValueError, OSError):
        pass
    if not free:
        try:
            free.append(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (ValueError, OSError, AttributeError):
            free.append(8 << 30)  # no way to ask: assume a small machine's 8 GB
    return min(free) // _MEMORY_SHARE


def _read_bounded(stream, path: str, what: str, budget: int) -> bytes | bytearray:
    """All of a binary stream, or a one-line error once it passes ``budget`` bytes
    (``/dev/zero`` has no end and no newline: it must not be read forever)."""
    data = bytearray()  # grown in place: no second copy as b"".join would make
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            return bytes(data) if len(data) < _CHUNK else data
        if len(data) + len(chunk) > budget:
            name = "standard input" if path == "-" else repr(path)
            raise CLIError(
                f"{what} {name} is larger than {budget / 1e6:,.0f} MB, more than this "
                "machine's free memory allows to score at once; score it in parts (split "
                "-l), or on a machine with more memory")
        data += chunk


def _read_lines(path: str, what: str, stdin: bool = False) -> list[str]:
    """One segment per line, as sacrebleu reads them (UTF-8, ``line.rstrip()``).

    With ``stdin``, ``-`` is standard input; a name ending in ``.gz`` is read through gzip.
    A file larger than the free memory allows (``_input_budget``) is refused.
    """
    budget = _input_budget()
    try:
        if stdin and path == "-":
            if sys.stdin is None or sys.stdin.isatty():
                raise CLIError(f"no {what}: give -i/--input FILE or pipe it on standard input")
            with open(sys.stdin.fileno(), "rb", closefd=False) as raw:
                data = _read_bounded(raw, path, what, budget)
        elif path.endswith(".gz"):
            with gzip.open(path, "rb") as f:
                data = _read_bounded(f, path, what, budget)
        else:
            with open(path, "rb") as f:
                data = _read_bounded(f, path, what, budget)
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise CLIError(f"{what} {path!r} does not exist") from None
    except IsADirectoryError:
        raise CLIError(f"{what} {path!r} is a directory, not a file") from None
    except PermissionError:
        raise CLIError(f"{what} {path!r} cannot be read: permission denied") from None
    except UnicodeDecodeError as exc:
        raise CLIError(
            f"{what} {path!r} is not valid UTF-8 (byte 0x{exc.object[exc.start]:02x} "
            f"at offset {exc.start})"
        ) from None
    except EOFError as exc:  # gzip: "Compressed file ended before the end-of-stream marker"
        raise CLIError(f"{what} {path!r} is a truncated gzip file ({exc})") from None
    except OSError as exc:  # gzip.BadGzipFile is an OSError
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise CLIError(f"{what} {path!r} cannot be read: {reason}") from None
    # what iterating a file opened with newline="\n" yields: split at "\n" only, the
    # last line kept without one, no empty line after a final newline
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def _seed(text: str) -> int:
    """``--seed``: a non-negative integer (argparse reports anything else in one line)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value}")
    return value


def _options(args: argparse.Namespace) -> BleuOptions:
    if args.max_ngram_order < 1:
        raise CLIError(f"--max-ngram-order must be at least 1, got {args.max_ngram_order}")
    if args.smooth_value is not None:
        takes = [m.name for m in SMOOTHING.values() if m.takes_value]
        if args.smooth not in takes:
            raise CLIError(f"--smooth-value applies to --smooth {' or '.join(takes)} only, "
                           f"not {args.smooth!r}")
        if not (args.smooth_value >= 0 and math.isfinite(args.smooth_value)):
            raise CLIError(f"--smooth-value must be a non-negative number, "
                           f"got {args.smooth_value:g}")
    try:
        return BleuOptions(
            max_n=args.max_ngram_order,
            tokenizer=_tokenizer(args),
            lowercase=args.lowercase,
            smoothing=args.smooth,
            smooth_value=args.smooth_value,
            effective_order=args.sentence_level,  # as sacrebleu does for sentence BLEU
        )
    except (TypeError, ValueError) as exc:
        raise CLIError(str(exc)) from None


#: What sacrebleu picks for a target language when no --tokenize is given (its
#: ``BLEU._TOKENIZER_MAP``); every other target gets its default, 13a.
_LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def _target_language(args: argparse.Namespace) -> str | None:
    """The target language of ``-l SRC-TGT``, or None without ``-l``."""
    if args.langpair is None:
        return None
    src, dash, tgt = args.langpair.partition("-")
    if not (dash and src and tgt) or "-" in tgt:
        raise CLIError(f"-l/--language-pair must be SRC-TGT, two language codes joined by "
                       f"'-' such as en-zh, got {args.langpair!r}")
    return tgt  # as sacrebleu: case-sensitive ("en-ZH" is not Chinese to it)


def _tokenizer(args: argparse.Namespace) -> str:
    """The tokenizer, chosen as sacrebleu's CLI chooses it: ``--tokenize`` if given, else
    the target language's (``zh`` for ``-l en-zh``), else 13a."""
    if args.tokenize is not None:
        return str(args.tokenize)
    target = _target_language(args)
    choice = _LANGUAGE_TOKENIZERS.get(target or "", "13a")
    if choice not in TOKENIZERS:
        raise CLIError(f"-l {args.langpair}: sacrebleu scores this target language with its "
                       f"{choice} tokenizer, which bleu-lesson does not have; choose one with "
                       f"--tokenize ({', '.join(TOKENIZERS)})")
    return choice


def _warn(args: argparse.Namespace, message: str) -> None:
    """One warning line on stderr, unless ``-q``."""
    if not args.quiet:
        print(f"{PROG}: warning: {message} (-q hides this warning)", file=sys.stderr)


#: Han ideographs (with extensions and compatibility forms), kana, hangul syllables.
_CJK = re.compile("[\u2e80-\u2fdf\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
                  "\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]")
#: Tokenizers that split CJK text into units BLEU can count.
_CJK_TOKENIZERS = ("zh", "char", "jieba")


def cjk_share(lines: Sequence[str], limit: int = 200_000) -> float:
    """The share of CJK characters among the non-space characters of ``lines``.

    Only the first ``limit`` characters are looked at (the share of a sample).

    >>> cjk_share(["猫坐在垫子上", "the cat"])
    0.5
    """
    sample = "".join(lines)[:limit]
    letters = sum(not c.isspace() for c in sample)
    return len(_CJK.findall(sample)) / letters if letters else 0.0


def _json(result: BleuResult, width: int) -> dict:
    """sacrebleu's JSON record: name, score (0–100), signature, verbose score, fields."""
    line = result.format(width)  # "BLEU = 32.15 63.2/… (BP = …)"
    record: dict = {
        "name": "BLEU",
        "score": float(f"{100 * result.score:.{width}f}"),
        "signature": result.signature,
        "verbose_score": line.split(" ", 3)[3],
    }
    for field in result.signature.split("|"):
        key, _, value = field.partition(":")
        record[key] = value
    return record


def _references(args: argparse.Namespace, n_lines: int) -> list[list[str]]:
    """The reference streams: one per file, or ``--num-refs`` tab-separated in one file."""
    given = args.num_refs is not None
    num_refs = args.num_refs if given else 1
    if num_refs < 1:
        raise CLIError(f"--num-refs must be at least 1, got {num_refs}")
    if num_refs > 1 and len(args.refs) != 1:
        raise CLIError(f"--num-refs {num_refs} reads the references of a segment from one "
                       f"tab-separated file, but {len(args.refs)} reference files were given")
    streams: list[list[str]] = []
    for ref in args.refs:
        lines = _read_lines(ref, "reference file")
        if len(lines) != n_lines:
            raise CLIError(
                f"reference file {ref!r} has {len(lines)} line{'s' * (len(lines) != 1)} "
                f"but the hypothesis file has {n_lines}"
            )
        if num_refs == 1:
            if not given:  # sacrebleu scores it silently as one reference with tabs in it
                tabbed = next((k for k, line in enumerate(lines, start=1) if "\t" in line), 0)
                if tabbed:
                    n_fields = lines[tabbed - 1].count("\t") + 1
                    _warn(args, f"reference file {ref!r} line {tabbed} holds a tab: if each "
                                f"line holds several references, give --num-refs {n_fields} "
                                "(sacrebleu's -nr); scored as one reference per line")
            streams.append(lines)
            continue
        streams = [[] for _ in range(num_refs)]
        for number, line in enumerate(lines, start=1):
            fields = line.split("\t", num_refs - 1)
            if len(fields) != num_refs:
                raise CLIError(f"reference file {ref!r} line {number} has {len(fields)} "
                               f"tab-separated field{'s' * (len(fields) != 1)}, but "
                               f"--num-refs is {num_refs}")
            for stream, field in zip(streams, fields, strict=True):
                stream.append(field)
    return streams


def _score(args: argparse.Namespace) -> int:
    if args.width is None:  # sacrebleu's CLI prints -b with its default width, 1
        args.width = 1 if args.score_only else 2
    if args.width < 0:
        raise CLIError(f"--width must be 0 or more, got {args.width}")
    options = _options(args)  # before reading: a bad option needs no files
    paired = "bs" if args.paired_bs else "ar" if args.paired_ar else None
    inputs = args.input or ["-"]
    if paired and len(inputs) < 2:
        raise CLIError(f"--paired-{paired} compares systems with a baseline: give the baseline "
                       "and at least one system, as -i BASELINE SYSTEM [SYSTEM ...]")
    if args.sentence_level and (len(inputs) > 1 or paired):
        raise CLIError("--sentence-level scores one system: give one -i file and no paired test")
    systems: list[tuple[str, list[str]]] = []
    for path in inputs:
        hyps = _read_lines(path, "hypothesis file", stdin=True)
        if not hyps:
            where = "on standard input" if path == "-" else f"file {path!r}"
            raise CLIError(f"the hypothesis {where} is empty: there is no segment to score")
        if systems and len(hyps) != len(systems[0][1]):
            raise CLIError(f"hypothesis file {path!r} has {len(hyps)} lines but "
                           f"{systems[0][0]!r} has {len(systems[0][1])}")
        systems.append((path, hyps))
    streams = _references(args, len(systems[0][1]))
    tokenizer = options.tokenizer if isinstance(options.tokenizer, str) else "?"
    if tokenizer not in _CJK_TOKENIZERS:
        share = cjk_share([*systems[0][1], *streams[0]])
        if share > 0.5:
            _warn(args, f"the text is mostly Chinese, Japanese or Korean ({100 * share:.0f}% "
                        f"CJK characters) but the tokenizer is {tokenizer}, which leaves a run "
                        "of them as one word: give --tokenize zh (or -l SRC-zh, as sacrebleu)")
    try:
        scorer = BleuScorer(references_from_streams(*streams), options)
        if len(systems) > 1 or paired:
            return _many_systems(args, scorer, systems, paired)
        hyps = systems[0][1]
        results = scorer.sentence_scores(hyps) if args.sentence_level else [scorer.score(hyps)]
    except (TypeError, ValueError) as exc:
        raise CLIError(str(exc)) from None

    for result in results:
        if args.format == "json":
            indent = None if args.sentence_level else 1  # sentence level: one line each
            print(json.dumps(_json(result, args.width), indent=indent, ensure_ascii=False))
        elif args.score_only:
            print(f"{100 * result.score:.{args.width}f}")
        else:
            print(result.format(args.width, signature=True))
    return 0


def _many_systems(args: argparse.Namespace, scorer: BleuScorer, systems: list, paired) -> int:
    """Several systems: a table like sacrebleu's, with a paired test against the first."""
    w = args.width
    stats = [scorer.segment_stats(hyps) for _, hyps in systems]
    results = [scorer.score_stats(sum_stats(s)) for s in stats]
    names = [name for name, _ in systems]
    signature = results[0].signature
    rows: list[dict] = []
    if paired is None:
        rows = [{"score": r.score} for r in results]
    else:
        names[0] = f"Baseline: {names[0]}"
        n = args.paired_bs_n if paired == "bs" else args.paired_ar_n
        if n < 1:
            raise CLIError(f"--paired-{paired}-n must be at least 1, got {n}")
        head, _, rest = signature.partition("|")  # sacrebleu: nrefs, then the test's fields
        signature = f"{head}|{paired}:{n}|seed:{args.seed}|{rest}"
        base = {"score": results[0].score}
        if paired == "bs":  # the baseline's own interval, from the same resamples
            indices = bootstrap_indices(len(stats[0]), n, args.seed)
            base["mean"], base["ci"] = _estimate_ci(resample_scores(stats[0], scorer, indices))
        rows.append(base)
        for other in stats[1:]:
            if paired == "bs":
                r = paired_bootstrap_stats(stats[0], other, scorer, n_samples=n, seed=args.seed)
                rows.append({"score": r.system, "p_value": r.p_value, "mean": r.mean,
                             "ci": r.ci})
            else:
                a = paired_approximate_randomization_stats(stats[0], other, scorer,
                                                           n_samples=n, seed=args.seed)
                rows.append({"score": a.system, "p_value": a.p_value})
    if args.format == "json":  # sacrebleu's records: 0-100 scale, unrounded, null if absent
        def record(row: dict) -> dict:
            scaled = {k: 100 * row[k] if k in row else None for k in ("score", "mean", "ci")}
            return {"score": scaled["score"], "p_value": row.get("p_value"),
                    "mean": scaled["mean"], "ci": scaled["ci"]}
        print(json.dumps([{"system": name, "BLEU": record(row)}
                          for name, row in zip(names, rows, strict=True)],
                         indent=4, ensure_ascii=False))
        return 0
    if args.score_only:
        for name, row in zip(names, rows, strict=True):
            print(f"{name}\t{100 * row['score']:.{w}f}")
        return 0
    print(_table(names, rows, w, paired))
    print()
    if paired:
        print(_paired_notes(paired, args.paired_bs_n if paired == "bs" else args.paired_ar_n,
                            names[0]))
    print("-----------------\nMetric signatures\n-----------------")
    print(f" - {'BLEU':<10} {signature}")
    return 0


def _table(names: list[str], rows: list[dict], width: int, paired) -> str:
    """sacrebleu's table: tabulate's fancy_grid, names right-aligned, scores centred."""
    from tabulate import tabulate

    cells = []
    for row in rows:
        text = f"{100 * row['score']:.{width}f}"
        if "mean" in row:
            text += f" ({100 * row['mean']:.{width}f} ± {100 * row['ci']:.{width}f})"
        if "p_value" in row:
            p = row["p_value"]
            text += f"\n(p = {p:.4f})" + ("*" if p <= 0.05 else "")
        cells.append(text)
    title = "BLEU (μ ± 95% CI)" if paired == "bs" else "BLEU"
    return tabulate({"System": names, title: cells}, headers="keys", tablefmt="fancy_grid",
                    colalign=("right",), stralign="center", numalign="center")


def _paired_notes(paired: str, n: int, baseline: str) -> str:
    """The explanation sacrebleu prints under a paired test's table."""
    test = "bootstrap resampling" if paired == "bs" else "approximate randomization"
    kind = "resampling trials" if paired == "bs" else "trials"
    msg = f"Paired {test} test with {n} {kind}"
    provided = ("Actual system score / bootstrap estimated true mean / 95% CI are provided for "
                "each metric." if paired == "bs" else "Actual system score is provided for "
                "each metric.")
    return "\n".join([
        "-" * len(msg), msg, "-" * len(msg),
        f" - Each system is pairwise compared to {baseline}.",
        f"   {provided}",
        "",
        " - Null hypothesis: the system and the baseline translations are essentially",
        "   generated by the same underlying process. For a given system and the baseline,",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        "   or higher occurring due to chance, under the assumption that the null hypothesis "
        "is correct.",
        "",
        " - Assuming a significance threshold of 0.05, the null hypothesis can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be '
        "attributed",
        '   to chance, hence the system is significantly "different" than the baseline.',
        "   Otherwise, the p-values are not marked.",
        "",
        ' - NOTE: Significance does not tell whether a system is "better" than the baseline '
        "but rather",
        '   emphasizes the "difference" of the systems in terms of the replicability of the '
        "delta.",
        "",
    ])


# --- data -----------------------------------------------------------------------------

def _data(args: argparse.Namespace) -> int:
    names = list(DATASETS) if args.dataset == "all" else [args.dataset]
    for k, name in enumerate(names):
        try:
            spec = dataset(name)
            folder = fetch_dataset(name, download=True, progressbar=not args.quiet)
        except DatasetNotFoundError as exc:
            line = f"{str(exc).splitlines()[0].rstrip('.')}; {looked_in(name)}."
            for later in names[k + 1:]:  # not tried: the network is not there
                left = missing_files(later)  # in none of the folders looked in
                if left:
                    total, sub = len(dataset(later).files), dataset(later).folder
                    notes = [] if len(left) == total else [", ".join(left)]
                    if sub:
                        it = "it goes" if len(left) == 1 else "they go"
                        notes.append(f"{it} in the {sub}/ subfolder")
                    what = (f"its {total} files are missing too" if len(left) == total else
                            f"{len(left)} of its {total} files "
                            f"{'is' if len(left) == 1 else 'are'} missing too")
                    line += (f" {later} was not tried: {what}"
                             + (f" ({'; '.join(notes)})" if notes else "") + ".")
            # the error stays one line on stderr; on stdout, every file still missing, where
            # it goes and where it comes from, to fetch them elsewhere and copy them here
            print("The missing files (each goes into the folder the error names; a subfolder "
                  "is part of the name) and where each comes from:")
            for later in names[k:]:
                sub = dataset(later).folder
                for filename in missing_files(later):
                    where = f"{sub}/{filename}" if sub else filename
                    print(f"  {where}  <-  {dataset(later).url(filename)}")
            raise CLIError(line) from None
        except ValueError as exc:
            raise CLIError(str(exc)) from None
        print(f"{name}: {len(spec.files)} files in {folder} (SHA-256 verified, "
              f"{spec.size / 1e6:.1f} MB)")
    return 0


# --- instructor tools -----------------------------------------------------------------

def _default_notebooks() -> list[str]:
    from pathlib import Path

    here = Path("notebooks")  # relative, so that messages name files as the user sees them
    found = sorted(str(p) for p in here.glob("[0-9][0-9]_*.ipynb"))
    if not found:
        raise CLIError(f"no chapter notebooks given and none found in {Path.cwd() / here}")
    return found


def _student(args: argparse.Namespace) -> int:
    notebooks = args.notebooks or _default_notebooks()
    try:
        written = write_student_copies(args.out, notebooks, force=args.force)
    except (ValueError, OSError) as exc:
        raise CLIError(f"student: {exc}") from None
    for path in written:
        print(path)
    return 0


def _stop_children() -> None:
    """Kill every process this one started (checkers and their kernels), so that an
    interrupted ``check`` leaves nothing running."""
    import os
    import signal
    import time

    for attempt in range(2):  # again: a worker may have been starting a checker
        for pid in _descendants(os.getpid()):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if attempt == 0:
            time.sleep(0.3)


def _run_checks(paths: list[str], on_result, progress, **options) -> None:
    """Check ``paths``, calling ``on_result(k, rows)`` in this thread as each submission
    finishes (k indexes ``paths``); on Ctrl-C ``check_submissions`` kills the running
    sandboxes and raises again."""
    course.check_submissions(paths, progress=progress, on_result=on_result, **options)


_SIZE_UNITS = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3, "T": 1024 ** 4}


def _memory_size(text: str) -> int:
    """``"2G"``, ``"512M"``, ``"1.5g"``, ``"1048576"`` -> bytes."""
    import re

    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*", text.upper())
    if not m:
        raise CLIError(f"--memory must be a size such as 2G or 512M, got {text!r}")
    size = int(float(m.group(1)) * _SIZE_UNITS[m.group(2)])
    if size < 64 * 1024 ** 2:
        raise CLIError(f"--memory must be at least 64M (a kernel needs that), got {text!r}")
    return size


def _check(args: argparse.Namespace) -> int:
    import os
    import signal


    if not (math.isfinite(args.timeout) and args.timeout > 0):
        raise CLIError(f"--timeout must be a finite number of seconds > 0, got {args.timeout:g}")
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    if jobs < 1:
        raise CLIError(f"--jobs must be at least 1, got {jobs}")
    limits = Limits(memory=_memory_size(args.memory))
    chapter = None
    if args.chapter is not None:
        try:
            chapter = chapter_id(args.chapter)
        except ValueError:
            chapter = args.chapter
        if chapter not in registry():
            raise CLIError(f"--chapter must be one of {', '.join(registry())}, "
                           f"got {args.chapter!r}")
    try:
        kind = backend()
    except ValueError as exc:
        raise CLIError(str(exc)) from None
    if refusal(kind):
        raise CLIError(f"check: {refusal(kind)}")
    report = None
    if args.report is not None:  # before grading: a bad path must not cost the results
        try:
            report = check_report_path(args.report, args.submissions, force=args.force)
        except ValueError as exc:
            raise CLIError(f"check: {exc}") from None
    # A submission that does not exist is a mistake on the command line (a typo, a glob
    # that matched nothing), not a student's result: one line each, no report row, exit
    # 2; the others are still checked (as `ls` and `cp` do), so no grading is lost.
    absent = [p for p in args.submissions if not _exists(p)]
    for path in absent:
        print(f"{PROG}: error: check: SUBMISSION {path!r} does not exist", file=sys.stderr)
    paths = [p for p in args.submissions if p not in absent]
    if not paths:
        return 2
    done: dict[int, list[Row]] = {}

    def rows(missing_why: str | None) -> list[Row]:
        out = []
        for k, path in enumerate(paths):
            if k in done:
                out.extend(done[k])
            elif missing_why is not None:
                out.append(Row(path, "", "not-checked", missing_why, kind))
        return out

    def save(missing_why: str) -> str | None:
        if report is None:
            return None
        try:
            write_report(rows(missing_why), report)
        except OSError as exc:
            return f"cannot write the report {str(report)!r}: {exc.strerror or exc}"
        return None

    def on_result(k: int, result: list[Row]) -> None:
        done[k] = result
        problem = save("not checked yet: the check was still running")  # a snapshot
        if problem:
            print(f"{PROG}: warning: {problem}", file=sys.stderr, flush=True)

    def terminated(signum, frame) -> None:  # SIGTERM ends the check as Ctrl-C does:
        raise KeyboardInterrupt  # sandboxes killed, their copies removed, report saved

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        print(f"{PROG} check: {describe(kind)}", file=sys.stderr, flush=True)
        _run_checks(paths, on_result,
                    lambda line: print(line, file=sys.stderr, flush=True),
                    timeout=args.timeout, jobs=jobs, limits=limits, chapter=chapter,
                    sandbox=kind)
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the save
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        _stop_children()
        close_all()  # no copy of a submission survives in a sandbox's work folder
        missing = [p for k, p in enumerate(paths) if k not in done]
        problem = save("not checked: the check was interrupted (Ctrl-C)")
        print(summary_table(rows(None)))
        where = f"; the report {shown(report)} lists them as not-checked" if report else ""
        print(f"{PROG}: interrupted: {len(done)} of {len(paths)} submissions checked; "
              f"not checked: {' '.join(map(shown, missing))}{where}", file=sys.stderr)
        if problem:
            print(f"{PROG}: error: check: {problem}", file=sys.stderr)
        return 130
    finally:
        if signal.getsignal(signal.SIGTERM) is terminated:
            signal.signal(signal.SIGTERM, previous)
    print(summary_table(rows(None)))
    errors = [r for r in rows(None) if r.status == "error"]
    for r in errors:  # the reason of every error row, where the eye lands
        print(f"{PROG}: error row: {shown(r.submission)} {r.exercise or '-'}: {r.detail}",
              file=sys.stderr)
    unreadable = sorted({shown(r.submission) for r in errors if r.exercise == "-"})
    problem = save("not checked")  # every submission is done: no such row
    if problem:
        raise CLIError(f"check: {problem}")
    if unreadable:  # before the data line below: that one must stay the last
        print(f"{PROG}: error: check: {len(unreadable)} of {len(paths)} submissions could not "
              f"be judged at all (rows with exercise '-'; reasons above): "
              f"{' '.join(unreadable)}", file=sys.stderr)
    unjudged = sorted({shown(r.submission) for r in rows(None)
                       if r.detail.startswith(NO_DATA)})
    if unjudged:  # the machine's fault, not the students': say it where the eye lands
        print(f"{PROG}: error: check: {len(unjudged)} of {len(paths)} submissions were not "
              f"judged, their chapter needs the WMT22 data and it is not on this machine "
              f"(rows with status error): {get_data_hint()}, then check them again: "
              f"{' '.join(unjudged)}", file=sys.stderr)
    if absent:  # said again at the end, where the eye lands after a long run
        print(f"{PROG}: error: check: {len(absent)} of {len(args.submissions)} SUBMISSION "
              f"arguments do not exist and are not in the summary or the report: "
              f"{' '.join(map(repr, absent))}", file=sys.stderr)
        return 2
    return 2 if unjudged or unreadable else 0


def _exists(path: str) -> bool:
    """Whether ``path`` names anything (a broken symlink counts: ``check`` reports it)."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True  # e.g. permission denied: the check reports why it cannot read it
    return True


# --- the parser -----------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    """The ``bleu-lesson`` argument parser (subcommands: ``score``)."""
    parser = _Parser(
        prog=PROG,
        description="With no command: print the seed chapter's two examples with the values "
                    "its code really gives. 'score': BLEU of a hypothesis file, like sacrebleu.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    score = commands.add_parser(
        "score", help="score a hypothesis file against reference files (like sacrebleu)",
        description="Corpus BLEU (or one line per segment with --sentence-level) of HYP "
                    "against one or more reference files, each with one line per segment.",
    )
    score.add_argument("refs", nargs="+", metavar="REF",
                       help="reference file(s); line i of each is a reference of segment i")
    score.add_argument("-i", "--input", nargs="+", default=None, metavar="HYP",
                       help="hypothesis file(s), one segment per line ('-' or absent: stdin); "
                            "with several, a table (the first is the baseline of a paired test)")
    score.add_argument("-nr", "--num-refs", type=int, default=None, metavar="N",
                       help="N references per line of one tab-separated reference file "
                            "(default: 1; a tab in a reference line without it is warned "
                            "about)")
    score.add_argument("-l", "--language-pair", dest="langpair", default=None,
                       metavar="SRC-TGT",
                       help="language pair, as sacrebleu: without --tokenize it picks the "
                            "target's tokenizer (zh for a Chinese target; else 13a)")
    score.add_argument("-tok", "--tokenize", default=None, choices=TOKENIZERS,
                       help="tokenizer (default: 13a, or the target's with -l)")
    score.add_argument("-lc", "--lowercase", action="store_true",
                       help="lowercase hypotheses and references")
    score.add_argument("-s", "--smooth", "--smooth-method", dest="smooth", default="exp",
                       choices=SMOOTHING_METHODS, metavar="METHOD",
                       help="smoothing: " + ", ".join(SMOOTHING_METHODS) + " (default: exp)")
    score.add_argument("-sv", "--smooth-value", type=float, default=None, metavar="X",
                       help="the value of " + " or ".join(
                           f"'{m.name}' (default {m.default:g})" for m in SMOOTHING.values()
                           if m.default is not None))
    score.add_argument("--max-ngram-order", type=int, default=4, metavar="N",
                       help="highest n-gram order (default: 4)")
    score.add_argument("-sl", "--sentence-level", action="store_true",
                       help="one score per segment (with effective order), nothing else")
    score.add_argument("-f", "--format", default="text", choices=("text", "json"),
                       help="output format (default: text)")
    score.add_argument("-w", "--width", type=int, default=None, metavar="W",
                       help="decimals of the score (default: 1 with -b, as sacrebleu's CLI; "
                            "2 otherwise, as sacrebleu's str())")
    score.add_argument("-b", "--score-only", action="store_true",
                       help="print the score only (0-100), like sacrebleu -b")
    score.add_argument("-q", "--quiet", action="store_true",
                       help="no warnings (tabs in a reference line without --num-refs, "
                            "CJK text under a tokenizer that does not split it)")
    test = score.add_mutually_exclusive_group()
    test.add_argument("-pbs", "--paired-bs", action="store_true",
                      help="paired bootstrap test of each system against the first -i")
    test.add_argument("-par", "--paired-ar", action="store_true",
                      help="paired approximate randomization test against the first -i")
    score.add_argument("-pbsn", "--paired-bs-n", type=int, default=1000, metavar="N",
                       help="bootstrap resamples of --paired-bs (default: 1000)")
    score.add_argument("-parn", "--paired-ar-n", type=int, default=10000, metavar="N",
                       help="trials of --paired-ar (default: 10000)")
    score.add_argument("--seed", type=_seed, default=12345, metavar="N",
                       help="random seed of the paired tests (default: 12345, as sacrebleu)")
    score.set_defaults(run=_score)

    data = commands.add_parser(
        "data", help="download the WMT22 data into the user cache (once; verified)",
        description="Download the pinned WMT22 files (SHA-256 checked, progress bar per file) "
                    "into the user cache, unless they are already in $BLEU_LESSON_WMT22_DIR "
                    "or the cache. Safe to run again: only missing or corrupted files are "
                    "fetched. Offline, copy the files into a folder and set "
                    "BLEU_LESSON_WMT22_DIR to it.")
    data.add_argument("dataset", nargs="?", default="all", choices=[*DATASETS, "all"],
                      help="wmt22 (the test set), wmt22-human (zh-en human judgments) or all "
                           "(default)")
    data.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    data.set_defaults(run=_data)

    student = commands.add_parser(
        "student", help="write student copies of the chapters (solutions replaced by stubs)",
        description="Copy chapter notebooks with every solution block replaced by a stub "
                    "and the outputs of exercise cells cleared.")
    student.add_argument("notebooks", nargs="*", metavar="NOTEBOOK",
                         help="chapters to copy (default: every notebooks/NN_*.ipynb)")
    student.add_argument("--out", required=True, metavar="DIR",
                         help="folder to write into; never the folder of the originals")
    student.add_argument("--force", action="store_true",
                         help="overwrite files in DIR that are not student copies")
    student.set_defaults(run=_student)

    check = commands.add_parser(
        "check", help="execute submissions and check their exercises (runs students' code!)",
        description="Execute each submitted notebook in a fresh kernel inside a sandbox "
                    "(bubblewrap or unshare where Linux allows: no network, read-only files, "
                    "resource limits) with a hard time limit, and judge every exercise of "
                    "its chapter in this process from the values the kernel sends back. "
                    "Submissions are never modified. A SUBMISSION that does not exist (a "
                    "typo, a glob that matched nothing) is a mistake of the command line, "
                    "not a result: one error line on stderr each, no row in the summary or "
                    "the report; the other submissions are still checked, and the exit "
                    "status is 2 (0 when every submission was checked). The kernels get "
                    "the WMT22 data where the library finds it ($BLEU_LESSON_WMT22_DIR, "
                    "else the user cache `make data` fills); without it, a submission of a "
                    "chapter that needs it is not run: error rows saying so, a last line "
                    "naming `make data`, exit status 2.")
    check.add_argument("submissions", nargs="+", metavar="SUBMISSION.ipynb")
    check.add_argument("--timeout", type=float, default=120, metavar="SECONDS",
                       help="wall-clock limit per notebook, kernel start-up not counted "
                            "(default: 120)")
    check.add_argument("--report", metavar="FILE.csv",
                       help="write submission,exercise,status,detail,sandbox rows to this "
                            "CSV file (sandbox: the backend that ran the check, bwrap, "
                            "unshare or none, on every row; rewritten as each submission "
                            "finishes; kept on Ctrl-C)")
    check.add_argument("--force", action="store_true",
                       help="let --report overwrite an existing file that is not a report")
    check.add_argument("--jobs", type=int, default=None, metavar="N",
                       help="submissions checked at once (default: the number of cores)")
    check.add_argument("--chapter", default=None, metavar="NN",
                       help="judge every submission as chapter NN, whatever its metadata "
                            "says (a disagreement is noted in the detail); without it, a "
                            "notebook whose metadata chapter disagrees with its file name or "
                            "its check() cells is reported as an error")
    check.add_argument("--memory", default="2G", metavar="SIZE",
                       help="address-space limit of each submission's kernel (default: 2G)")
    check.set_defaults(run=_check)
    return parser


def _safe_streams() -> None:
    """Never crash on a terminal that cannot show Chinese (LANG=C, PYTHONIOENCODING=ascii):
    characters it cannot encode are written as escapes instead."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "ascii"
        try:
            "单参考 μ ± ✔".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (0, or 2 for any user error)."""
    _safe_streams()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 2)
    try:
        if args.command is None:
            sys.stdout.write(seed_demo())
            sys.stdout.flush()
            return 0
        code = args.run(args)
        sys.stdout.flush()  # a closed pipe shows up here, inside the handler below
        return code
    except CLIError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `bleu-lesson ... | head`: the reader left; stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush is silent
        return 141  # 128 + SIGPIPE, what a shell reports for a process killed by it
    except MemoryError:
        print(f"{PROG}: error: out of memory (the input is too large for this machine; "
              "score it in parts, or on a machine with more memory)", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0] or str(exc)  # the package, not its module
        print(f"{PROG}: error: {missing} is not installed for {sys.executable}; run "
              "`make venv` and use .venv/bin/bleu-lesson (or: python -m pip install -e .)",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
