"""``bleu-lesson score``: BLEU of hypothesis files, read and printed as sacrebleu's CLI does.

Reads each file within a share of the free memory, warns about tabs and CJK text under a
tokenizer that does not split it, and prints one score, a JSON record, per-segment scores
or, for several systems, sacrebleu's table with a paired test against the first.
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

from bleu_lesson.analysis.significance import (
    _estimate_ci,
    bootstrap_indices,
    paired_approximate_randomization_stats,
    paired_bootstrap_stats,
    resample_scores,
)
from bleu_lesson.core.bleu import BleuOptions, BleuResult, BleuScorer, references_from_streams
from bleu_lesson.core.smoothing import SMOOTHING
from bleu_lesson.core.stats import sum_stats
from bleu_lesson.core.tokenizers import TOKENIZERS

from . import PROG, CLIError

__all__ = ["cjk_share", "run", "seed_arg"]


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


def seed_arg(text: str) -> int:
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
                # a file of tab-separated references has a tab on (nearly) every line; a stray
                # tab in a real reference (WMT22 zh-en B, line 1364) is no reason to warn
                with_tab = [k for k, line in enumerate(lines, start=1) if "\t" in line]
                tabbed = with_tab[0] if 2 * len(with_tab) > len(lines) else 0
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


def run(args: argparse.Namespace) -> int:
    """``score``: print the BLEU of the -i files against the REF files; the exit code."""
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
