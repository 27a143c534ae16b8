"""Peak memory of corpus BLEU on 94k segments x 2 references, bleu_lesson against sacrebleu.

    python benchmarks/bench_memory.py [--copies 50]

The corpus: the 1875 zh-en segments ``--copies`` times (50: 93,750 segments), references
A and B repeated, the hypotheses taken from the 12 systems in turn (copy k is system
k mod 12), tokenizer 13a. Each peer runs in its own fresh process, which reads the files,
builds its scorer and scores the whole corpus once; the process reports its peak resident
memory (``resource.getrusage(RUSAGE_SELF).ru_maxrss``) and, for reference, the peak after
its imports and after reading the text (the same lists of str on both sides). The ratio
is bleu_lesson's peak over sacrebleu's (goal: at most 0.5).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from _goals import verdict
from _wmt22 import add_data_argument, wmt22_folder

PAIR = "generaltest2022.zh-en"
GOAL = 0.5  # issue 19: peak memory at most half of sacrebleu's

PROGRAM = """
import resource, sys
def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB (Linux)
IMPORT
imported = peak()
folder, copies, tok = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def read(p):
    with open(p, encoding="utf-8") as f:
        return f.read().split("\\n")[:-1]
import glob
systems = [read(p) for p in sorted(glob.glob(f"{folder}/PAIR.hyp.*.en"))]
ref_a, ref_b = read(f"{folder}/PAIR.ref.A.en"), read(f"{folder}/PAIR.ref.B.en")
hyps = [line for k in range(copies) for line in systems[k % len(systems)]]
ref_a, ref_b = ref_a * copies, ref_b * copies
del systems
read_done = peak()
SCORE
print(len(hyps), repr(score), imported, read_done, peak())
""".replace("PAIR", PAIR)

PEERS = {
    "sacrebleu": PROGRAM.replace("IMPORT", "from sacrebleu.metrics import BLEU").replace(
        "SCORE", "score = BLEU(tokenize=tok).corpus_score(hyps, [ref_a, ref_b]).score / 100"),
    "bleu_lesson": PROGRAM.replace(
        "IMPORT", "from bleu_lesson import BleuScorer, references_from_streams").replace(
        "SCORE", "score = BleuScorer(references_from_streams(ref_a, ref_b), tokenizer=tok)"
                 ".score(hyps).score"),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_data_argument(parser)
    parser.add_argument("--copies", type=int, default=50)
    parser.add_argument("--tokenize", default="13a")
    args = parser.parse_args()
    args.data = str(wmt22_folder(args.data, "bench_memory"))
    results = {}
    for peer, code in PEERS.items():
        out = subprocess.run([sys.executable, "-c", code, str(Path(args.data).resolve()),
                              str(args.copies), args.tokenize],
                             capture_output=True, text=True, check=True).stdout.split()
        results[peer] = (int(out[0]), float(out[1]), *map(float, out[2:]))
    segments = results["sacrebleu"][0]
    print(f"{segments} segments x 2 references (WMT22 zh-en x {args.copies}), "
          f"tokenizer {args.tokenize}; peak resident memory of a fresh process")
    print(f"{'peer':12} {'after imports':>14} {'after reading':>14} {'peak':>10} {'score':>10}")
    for peer, (_, score, imported, read_done, peak) in results.items():
        print(f"{peer:12} {imported:11.1f} MiB {read_done:11.1f} MiB {peak:6.1f} MiB "
              f"{score:10.6f}")
    ratio = results["bleu_lesson"][4] / results["sacrebleu"][4]
    same = abs(results["bleu_lesson"][1] - results["sacrebleu"][1]) < 1e-9
    print(f"ratio bleu_lesson / sacrebleu: {ratio:.2f} (goal <= {GOAL}); "
          f"same score: {'yes' if same else 'NO'} {verdict(ratio <= GOAL and same)}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
