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
import sys
from collections.abc import Sequence

from . import seed
from .bleu import BleuOptions, BleuResult, BleuScorer, references_from_streams
from .smoothing import SMOOTHING_METHODS
from .tokenizers import TOKENIZERS

__all__ = ["main", "seed_demo"]

PROG = "bleu-lesson"



class CLIError(Exception):
    """A user error: reported as one line on stderr, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is a single line on stderr (and exit code 2)."""

    def error(self, message: str):  # type: ignore[override]
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
    """What the seed's ``bleu_score.py`` prints, computed with ``bleu_lesson.seed``."""
    # here, not at the top: datasets imports the download machinery (urllib, ssl, …),
    # which ``score`` does not need
    from .datasets import SEED_CANDIDATE, SEED_REFERENCE, SEED_REFERENCES

    lines = _seed_lines("单参考", SEED_CANDIDATE, SEED_REFERENCE)
    lines += _seed_lines("多参考", SEED_CANDIDATE, SEED_REFERENCES)
    return "\n".join(lines) + "\n"


# --- score ----------------------------------------------------------------------------

def _read_lines(path: str, what: str, stdin: bool = False) -> list[str]:
    """One segment per line, as sacrebleu reads them (UTF-8, ``line.rstrip()``).

    With ``stdin``, ``-`` is standard input; a name ending in ``.gz`` is read through gzip.
    """
    try:
        if stdin and path == "-":
            if sys.stdin is None or sys.stdin.isatty():
                raise CLIError(f"no {what}: give -i/--input FILE or pipe it on standard input")
            stream = open(sys.stdin.fileno(), encoding="utf-8", newline="\n", closefd=False)
            with stream:
                return [line.rstrip() for line in stream]
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8", newline="\n") as f:
            return [line.rstrip() for line in f]
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
    except (OSError, EOFError) as exc:  # gzip.BadGzipFile is an OSError
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise CLIError(f"{what} {path!r} cannot be read: {reason}") from None


def _options(args: argparse.Namespace) -> BleuOptions:
    if args.max_ngram_order < 1:
        raise CLIError(f"--max-ngram-order must be at least 1, got {args.max_ngram_order}")
    if args.smooth_value is not None:
        if args.smooth not in ("floor", "add-k"):
            raise CLIError(
                f"--smooth-value applies to --smooth floor or add-k only, not {args.smooth!r}"
            )
        if not (args.smooth_value > 0 and math.isfinite(args.smooth_value)):
            raise CLIError(f"--smooth-value must be a positive number, got {args.smooth_value:g}")
    try:
        return BleuOptions(
            max_n=args.max_ngram_order,
            tokenizer=args.tokenize,
            lowercase=args.lowercase,
            smoothing=args.smooth,
            smooth_value=args.smooth_value,
            effective_order=args.sentence_level,  # as sacrebleu does for sentence BLEU
        )
    except (TypeError, ValueError) as exc:
        raise CLIError(str(exc)) from None


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


def _score(args: argparse.Namespace) -> int:
    if args.width < 0:
        raise CLIError(f"--width must be 0 or more, got {args.width}")
    options = _options(args)  # before reading: a bad option needs no files
    hyps = _read_lines(args.input, "hypothesis file", stdin=True)
    if not hyps:
        where = "on standard input" if args.input == "-" else f"file {args.input!r}"
        raise CLIError(f"the hypothesis {where} is empty: there is no segment to score")
    streams = []
    for ref in args.refs:
        lines = _read_lines(ref, "reference file")
        if len(lines) != len(hyps):
            raise CLIError(
                f"reference file {ref!r} has {len(lines)} line{'s' * (len(lines) != 1)} "
                f"but the hypothesis file has {len(hyps)}"
            )
        streams.append(lines)
    try:
        scorer = BleuScorer(references_from_streams(*streams), options)
        if args.sentence_level:
            results = scorer.sentence_scores(hyps)
        else:
            results = [scorer.score(hyps)]
    except (TypeError, ValueError) as exc:
        raise CLIError(str(exc)) from None

    for result in results:
        if args.format == "json":
            indent = None if args.sentence_level else 1  # sentence level: one line each
            print(json.dumps(_json(result, args.width), indent=indent, ensure_ascii=False))
        else:
            print(result.format(args.width, signature=True))
    return 0


# --- instructor tools -----------------------------------------------------------------

def _default_notebooks() -> list[str]:
    from pathlib import Path

    here = Path.cwd() / "notebooks"
    found = sorted(str(p) for p in here.glob("[0-9][0-9]_*.ipynb"))
    if not found:
        raise CLIError(f"no chapter notebooks given and none found in {here}")
    return found


def _student(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .course import write_student_copies

    notebooks = args.notebooks or _default_notebooks()
    for nb in notebooks:
        if not Path(nb).is_file():
            raise CLIError(f"notebook {nb!r} does not exist")
    try:
        written = write_student_copies(args.out, notebooks)
    except (ValueError, OSError) as exc:
        raise CLIError(str(exc)) from None
    for path in written:
        print(path)
    return 0


def _check(args: argparse.Namespace) -> int:
    import os

    from .course import check_submissions, summary_table, write_report

    if args.timeout <= 0:
        raise CLIError("--timeout must be positive")
    jobs = args.jobs or os.cpu_count() or 1
    if jobs < 1:
        raise CLIError("--jobs must be at least 1")
    rows = check_submissions(args.submissions, timeout=args.timeout, jobs=jobs,
                             progress=lambda line: print(line, file=sys.stderr, flush=True))
    if args.report:
        try:
            write_report(rows, args.report)
        except OSError as exc:
            raise CLIError(f"cannot write the report {args.report!r}: {exc}") from None
    print(summary_table(rows))
    return 0


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
    score.add_argument("-i", "--input", default="-", metavar="HYP",
                       help="hypothesis file, one segment per line ('-' or absent: stdin)")
    score.add_argument("-tok", "--tokenize", default="13a", choices=TOKENIZERS,
                       help="tokenizer (default: 13a)")
    score.add_argument("-lc", "--lowercase", action="store_true",
                       help="lowercase hypotheses and references")
    score.add_argument("-s", "--smooth", "--smooth-method", dest="smooth", default="exp",
                       choices=SMOOTHING_METHODS, metavar="METHOD",
                       help="smoothing: " + ", ".join(SMOOTHING_METHODS) + " (default: exp)")
    score.add_argument("-sv", "--smooth-value", type=float, default=None, metavar="X",
                       help="the value of 'floor' (default 0.1) or 'add-k' (default 1)")
    score.add_argument("--max-ngram-order", type=int, default=4, metavar="N",
                       help="highest n-gram order (default: 4)")
    score.add_argument("-sl", "--sentence-level", action="store_true",
                       help="one score per segment (with effective order), nothing else")
    score.add_argument("-f", "--format", default="text", choices=("text", "json"),
                       help="output format (default: text)")
    score.add_argument("-w", "--width", type=int, default=2, metavar="W",
                       help="decimals of the score (default: 2)")
    score.set_defaults(run=_score)

    student = commands.add_parser(
        "student", help="write student copies of the chapters (solutions replaced by stubs)",
        description="Copy chapter notebooks with every solution block replaced by a stub "
                    "and the outputs of exercise cells cleared.")
    student.add_argument("notebooks", nargs="*", metavar="NOTEBOOK",
                         help="chapters to copy (default: every notebooks/NN_*.ipynb)")
    student.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    student.set_defaults(run=_student)

    check = commands.add_parser(
        "check", help="execute submissions and check their exercises (runs students' code!)",
        description="Execute each submitted notebook in a fresh kernel with a time limit and "
                    "check every exercise of its chapter. This runs the students' code: use "
                    "a sandbox for work you do not trust. Submissions are never modified.")
    check.add_argument("submissions", nargs="+", metavar="SUBMISSION.ipynb")
    check.add_argument("--timeout", type=float, default=120, metavar="SECONDS",
                       help="time limit per notebook (default: 120)")
    check.add_argument("--report", metavar="FILE.csv",
                       help="write submission,exercise,status,detail rows to this CSV file")
    check.add_argument("--jobs", type=int, default=None, metavar="N",
                       help="submissions checked at once (default: the number of cores)")
    check.set_defaults(run=_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (0, or 2 for any user error)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 2)
    if args.command is None:
        sys.stdout.write(seed_demo())
        return 0
    try:
        return args.run(args)
    except CLIError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
