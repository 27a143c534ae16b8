"""Word segmentation of every WMT22 en-zh line: jieba's own ``lcut`` against ``tokenizer="jieba"``.

    python benchmarks/bench_jieba.py [--repeat 3] [--data FOLDER]

The WMT22 folder is found as every benchmark finds it (``benchmarks/_wmt22.py``):
``--data``, else ``$BLEU_LESSON_WMT22_DIR``, else the user cache that ``make data`` fills;
without it, one line on stderr and exit status 2.

Chapter 09 (section 7.1) scores all 13 en-zh systems against both references with the
``jieba`` tokenizer: 30,555 lines. Each side runs as its own ``python -c`` program, so each
starts with empty caches and pays its own jieba start-up (dictionary from jieba's cache
file): jieba's ``Tokenizer().lcut`` on each line, then the whitespace split, against
``bleu_lesson.tokenizers.get_tokenizer("jieba")`` (each run of Chinese characters cut once
and remembered, and each line). Interleaved, best of ``--repeat`` wall times of the
segmentation alone (the start-up is printed apart); both sides must give the same tokens
(their digests are compared).
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from _wmt22 import add_data_argument, wmt22_folder

PROGRAM = """
import hashlib, logging, sys, time
from pathlib import Path
folder = Path(sys.argv[2])
lines = []
for path in sorted(folder.glob("generaltest2022.en-zh.*.zh")):
    if ".hyp." in path.name or ".ref." in path.name:
        lines += path.read_text(encoding="utf-8").split("\\n")[:-1]
start = time.perf_counter()
if sys.argv[1] == "jieba":
    import jieba
    jieba.setLogLevel(logging.WARNING)
    segmenter = jieba.Tokenizer()
    segmenter.initialize()
    split = lambda line: " ".join(segmenter.lcut(line.rstrip())).split()
else:
    from bleu_lesson.tokenizers import get_tokenizer
    split = get_tokenizer("jieba")
    split("预热")  # jieba is imported and its dictionary loaded on first use
ready = time.perf_counter()
tokens = [split(line) for line in lines]
done = time.perf_counter()
digest = hashlib.sha256("\\n".join(" ".join(t) for t in tokens).encode()).hexdigest()[:16]
print(len(lines), ready - start, done - ready, digest)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    add_data_argument(parser)
    args = parser.parse_args()
    folder = str(wmt22_folder(args.data, "bench_jieba"))
    best: dict[str, tuple[float, float]] = {}
    digests, lines = {}, 0
    for _ in range(args.repeat):
        for side in ("jieba", "bleu_lesson"):
            out = subprocess.run([sys.executable, "-c", PROGRAM, side, folder],
                                 capture_output=True, text=True, check=True).stdout.split()
            lines, setup, seconds, digests[side] = int(out[0]), float(out[1]), float(out[2]), out[3]
            if side not in best or seconds < best[side][1]:
                best[side] = (setup, seconds)
    for side, (setup, seconds) in best.items():
        print(f"{side:12s} {lines} lines: {seconds:5.2f} s (start-up {setup:4.2f} s)")
    print(f"ratio jieba / bleu_lesson: {best['jieba'][1] / best['bleu_lesson'][1]:.2f}x; "
          f"same tokens: {digests['jieba'] == digests['bleu_lesson']}")
    return 0 if digests["jieba"] == digests["bleu_lesson"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
