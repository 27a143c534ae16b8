"""``bleu-lesson`` with no command: the seed chapter's two examples, as its code prints them."""

from __future__ import annotations

from bleu_lesson.core import seed
from bleu_lesson.data.datasets import SEED_CANDIDATE, SEED_REFERENCE, SEED_REFERENCES

__all__ = ["seed_demo"]


def _seed_lines(label: str, candidate: str, references: list[str]) -> list[str]:
    bleu, details = seed.compute_bleu(candidate, references)
    return [
        f"{label}BLEU: {bleu:.4f}",
        f"  各阶精确率: {[f'{p:.3f}' for p in details['precisions']]}",
        f"  长度惩罚: {details['brevity_penalty']:.4f}",
    ]


def seed_demo() -> str:
    """What the seed's ``bleu_score.py`` prints, computed with ``bleu_lesson.core.seed``."""
    lines = _seed_lines("单参考", SEED_CANDIDATE, SEED_REFERENCE)
    lines += _seed_lines("多参考", SEED_CANDIDATE, SEED_REFERENCES)
    return "\n".join(lines) + "\n"
