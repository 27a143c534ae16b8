"""Corpus BLEU of 1, 3 and 12 WMT22 zh-en systems in a fresh process, imports included.

    BLEU_LESSON_WMT22_DIR=../shared/data/wmt22 python benchmarks/bench_fresh.py [--repeat 5]

What a user pays for one command: start Python, import the library, read the files,
build the scorer with references A and B, score the first N systems, print the scores.
Each side runs as its own ``python -c`` program (sacrebleu's ``BLEU(references=…)``,
bleu_lesson's ``BleuScorer``, numpy engine and standard-library engine), interleaved, best of
``--repeat`` wall times. Two modes:

- ``tokenized``: files tokenized with sacrebleu's 13a beforehand (written to a temporary
  folder), tokenizer "none" on both sides;
- ``raw 13a``: the raw files, each side with its own 13a tokenizer (bleu_lesson's
  ``tok13a``, proven identical to sacrebleu's by tests/test_tok13a.py).

Prints the wall times, the ratio (sacrebleu / bleu_lesson), the goal (numpy engine: 3x
in both modes, issue 19) and whether both sides printed the same scores (to 1e-9). The last
line is the floor of the numpy engine: a fresh ``python -c "import numpy, bleu_lesson"``
that scores nothing, and the ratio sacrebleu's one-system time would have against it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _goals import verdict
from _wmt22 import add_data_argument, wmt22_folder

PAIR = "generaltest2022.zh-en"

READ = """
import sys
def read(p):
    with open(p, encoding="utf-8") as f:
        return f.read().split("\\n")[:-1]
folder, tok, *names = sys.argv[1:]
ref_a = read(f"{folder}/PAIR.ref.A.en")
ref_b = read(f"{folder}/PAIR.ref.B.en")
""".replace("PAIR", PAIR)

SACREBLEU = READ + """
from sacrebleu.metrics import BLEU
metric = BLEU(tokenize=tok, references=[ref_a, ref_b])
for name in names:
    print(name, repr(metric.corpus_score(read(f"{folder}/PAIR.hyp.{name}.en"), None).score / 100))
""".replace("PAIR", PAIR)

OURS = READ + """
from bleu_lesson import BleuScorer, references_from_streams
scorer = BleuScorer(references_from_streams(ref_a, ref_b), tokenizer=tok, engine=ENGINE)
for name in names:
    print(name, repr(scorer.score(read(f"{folder}/PAIR.hyp.{name}.en")).score))
""".replace("PAIR", PAIR)

GOALS = {"tokenized": 3.0, "raw 13a": 3.0}  # issue 19: 13a in a fresh process at least 3x


def systems(folder: Path) -> list[str]:
    return [p.name[len(PAIR) + 5:-3] for p in sorted(folder.glob(f"{PAIR}.hyp.*.en"))]


def pretokenize(folder: Path, out: Path) -> None:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = Tokenizer13a()
    for path in folder.glob(f"{PAIR}.*.en"):
        lines = path.read_text(encoding="utf-8").split("\n")[:-1]
        (out / path.name).write_text("".join(tok(x.rstrip()) + "\n" for x in lines),
                                     encoding="utf-8")


def run(code: str, args: list[str]) -> tuple[float, dict[str, float]]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         check=True).stdout
    wall = time.perf_counter() - start
    return wall, {name: float(value) for name, value in (line.split() for line in
                                                          out.splitlines())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_data_argument(parser)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--counts", default="1,3,12", help="numbers of systems (default 1,3,12)")
    args = parser.parse_args()
    args.data = str(wmt22_folder(args.data, "bench_fresh"))
    folder = Path(args.data).resolve()
    names = systems(folder)
    counts = [int(c) for c in args.counts.split(",")]
    peers = {"sacrebleu": SACREBLEU,
             "numpy": OURS.replace("ENGINE", "'numpy'"),
             "python": OURS.replace("ENGINE", "'python'")}
    print(f"WMT22 zh-en, references A and B, fresh `python -c` per run, best of {args.repeat} "
          f"wall times")
    print(f"{'mode':10} {'systems':>7} {'sacrebleu':>10} {'numpy':>8} {'ratio':>6} {'goal':>6} "
          f"{'python':>8} {'ratio':>6} {'same':>5}")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        pretokenize(folder, Path(tmp))
        for mode, where, tok in (("tokenized", tmp, "none"), ("raw 13a", str(folder), "13a")):
            for count in counts:
                argv = [where, tok, *names[:count]]
                times: dict[str, list[float]] = {peer: [] for peer in peers}
                scores: dict[str, dict[str, float]] = {}
                for _ in range(args.repeat):  # interleaved: every peer sees the same load
                    for peer, code in peers.items():
                        t, scores[peer] = run(code, argv)
                        times[peer].append(t)
                best = {peer: min(ts) for peer, ts in times.items()}
                same = all(abs(scores[p][k] - scores["sacrebleu"][k]) < 1e-9
                           for p in ("numpy", "python") for k in names[:count])
                failed |= not same
                ratio = best["sacrebleu"] / best["numpy"]
                if mode == "tokenized" and count == counts[0]:
                    one_system = best["sacrebleu"]
                print(f"{mode:10} {count:7d} {best['sacrebleu']:9.3f}s {best['numpy']:7.3f}s "
                      f"{ratio:5.2f}x >={GOALS[mode]:3.1f}x {best['python']:7.3f}s "
                      f"{best['sacrebleu'] / best['python']:5.2f}x {'yes' if same else 'NO':>5} "
                      f"{verdict(ratio >= GOALS[mode] and same)}")
        floor = min(run("import numpy, bleu_lesson", [])[0] for _ in range(args.repeat))
        start_up = min(run("pass", [])[0] for _ in range(args.repeat))
        print(f"floor: python -c 'import numpy, bleu_lesson' {floor:.3f}s "
              f"(python -c pass {start_up:.3f}s); sacrebleu's 1-system tokenized time over it: "
              f"{one_system / floor:.2f}x")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
