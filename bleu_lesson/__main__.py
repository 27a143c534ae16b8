"""``python -m bleu_lesson``: the command line's parser and its dispatch to ``bleu_lesson.cli``.

With no arguments it prints the seed chapter's two examples in the seed's own format,
with the values its code really gives (not the chapter's claimed 0.6065 and 0.7711)::

    $ python -m bleu_lesson
    单参考BLEU: 0.0000
    ...

``score`` scores a hypothesis file against one or more reference files, each a
reference stream (line i is the reference of segment i), like ``sacrebleu REF -i HYP``::

    $ python -m bleu_lesson score ref_a.txt ref_b.txt -i hyp.txt --tokenize zh

Errors (missing or unreadable files, different line counts, bad options) print one
line on stderr and exit with code 2. The handlers live in ``bleu_lesson.cli``: ``demo``,
``score``, ``data`` and ``check`` (``student`` and ``check``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from bleu_lesson.cli import PROG, CLIError
from bleu_lesson.cli import data as data_command
from bleu_lesson.cli import score as score_command
from bleu_lesson.cli.demo import seed_demo
from bleu_lesson.cli.nbschema import skip_iri_grammar
from bleu_lesson.core.smoothing import SMOOTHING, SMOOTHING_METHODS
from bleu_lesson.core.tokenizers import TOKENIZERS
from bleu_lesson.data.datasets import DATASETS

__all__ = ["build_parser", "main"]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is a single line on stderr (and exit code 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{PROG}: error: {message} (see '{self.prog} --help')\n")


# --- the dispatch ---------------------------------------------------------------------

def _student(args: argparse.Namespace) -> int:
    # here, not at the top: cli.check imports grading (sandbox, judge, every chapter's
    # exercises), which `score`, `data` and --help do not need; it keeps their start light
    from bleu_lesson.cli.check import student

    return student(args)


def _check(args: argparse.Namespace) -> int:
    # here, not at the top: as in _student, grading is loaded only by the commands using it
    from bleu_lesson.cli.check import check

    return check(args)


#: Each command's handler: it takes the parsed arguments and returns the exit code.
COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "score": score_command.run,
    "data": data_command.run,
    "student": _student,
    "check": _check,
}


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
    score.add_argument("--seed", type=score_command.seed_arg, default=12345, metavar="N",
                       help="random seed of the paired tests (default: 12345, as sacrebleu)")

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
    skip_iri_grammar()  # before student/check/workspace import nbformat (cli/nbschema.py)
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
        code = COMMANDS[args.command](args)
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
