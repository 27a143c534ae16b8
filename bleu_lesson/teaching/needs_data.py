"""What a chapter's first data cell says when the WMT22 data is not on the machine.

Chapters 09 and 10 cannot run without the WMT22 files, so their first data cell still stops
Run All; but what a learner sees first is a short Chinese note saying what to run, not a
red English ``DatasetNotFoundError`` traceback::

    with wmt22_needed():
        zh_en = load_wmt22("zh-en")

On ``DatasetNotFoundError`` it prints the note (Chinese, then one English line, then the
loader's own reason, indented) and raises ``WMT22DataMissing``, whose traceback in IPython is
its one line (``_render_traceback_``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bleu_lesson.data.datasets import WMT22_ENV_VAR, DatasetNotFoundError, get_data_hint

__all__ = ["WMT22DataMissing", "wmt22_needed", "missing_data_note"]


class WMT22DataMissing(RuntimeError):
    """The chapter stops here: the WMT22 data is not on this machine (see the note above)."""

    def _render_traceback_(self) -> list[str]:
        """IPython shows this instead of a traceback: the one line, no frames."""
        return [f"{type(self).__name__}: {self}"]


def missing_data_note(reason: str = "") -> str:
    """The note a learner reads when the data is missing: what to run, in Chinese first.

    >>> print(missing_data_note().splitlines()[0])
    ⚠ 这一章要用 WMT22 数据，这台机器上还没有，所以从这一格起无法运行。
    """
    lines = [
        "⚠ 这一章要用 WMT22 数据，这台机器上还没有，所以从这一格起无法运行。",
        "  怎么办：在课程文件夹里打开终端，运行 `make data`（只下载一次），再运行这一格；",
        "  机房没有外网时，把数据文件复制到一个文件夹，在启动 `make lab` 之前把环境变量",
        f"  {WMT22_ENV_VAR} 设为这个文件夹。",
        f"  (This chapter needs the WMT22 data: {get_data_hint()}; then run this cell again.)",
    ]
    if reason:
        lines.append("  原因 (details): " + reason.strip().replace("\n", "\n    "))
    return "\n".join(lines)


@contextmanager
def wmt22_needed() -> Iterator[None]:
    """Run a chapter's data-loading lines; when the data is missing, print
    ``missing_data_note`` and stop the chapter with a one-line ``WMT22DataMissing``."""
    try:
        yield
    except DatasetNotFoundError as exc:
        print(missing_data_note(str(exc)))
        raise WMT22DataMissing(
            "没有 WMT22 数据 (no WMT22 data): run `make data`, or set "
            f"{WMT22_ENV_VAR}") from None
