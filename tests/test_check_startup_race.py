"""A slow machine cannot turn a correct cell into a hang: the kernel is ready for the checker
only once its IOPub messages arrive (issue 20, class 6).

IOPub is a publish/subscribe channel: what the kernel publishes before the checker's
subscription is connected is lost. Under load the shell channel can answer ``kernel_info``
first; a checker that then runs cell 0 loses the cell's ``idle`` status and waits for it
until the deadline ("cell 0 hung", seen once under heavy load). The test makes the
subscription late on purpose: every IOPub message that arrives before ``LATE`` seconds
after the first ``kernel_info_reply`` is dropped, as a late subscriber never receives it.
"""

from __future__ import annotations

import json
import queue
import time

import pytest

from bleu_lesson.grading import sandbox
from bleu_lesson.grading.judge import Submission

pytestmark = pytest.mark.skipif(sandbox.refusal(sandbox.backend()) is not None,
                                reason="no sandbox backend can run a kernel here")

LATE = 2.0


@pytest.fixture
def late_iopub(monkeypatch):
    from jupyter_client import BlockingKernelClient

    state: dict = {"open_at": None, "dropped": 0}
    real_shell = BlockingKernelClient.get_shell_msg
    real_iopub = BlockingKernelClient.get_iopub_msg

    def shell(self, *args, **kwargs):
        msg = real_shell(self, *args, **kwargs)
        if msg["msg_type"] == "kernel_info_reply" and state["open_at"] is None:
            state["open_at"] = time.monotonic() + LATE
        return msg

    def iopub(self, *args, **kwargs):
        msg = real_iopub(self, *args, **kwargs)
        if state["open_at"] is None or time.monotonic() < state["open_at"]:
            state["dropped"] += 1  # published before the subscriber joined: never received
            raise queue.Empty
        return msg

    monkeypatch.setattr(BlockingKernelClient, "get_shell_msg", shell)
    monkeypatch.setattr(BlockingKernelClient, "get_iopub_msg", iopub)
    return state


def test_cell_0_is_not_hung_by_a_late_iopub_subscription(tmp_path, late_iopub):
    path = tmp_path / "04_x.ipynb"
    path.write_text(json.dumps({}), encoding="utf-8")
    with Submission(path, timeout=20, data=b"{}") as sub:
        sub.start()
        run = sub.run_cell("x = 3\n")   # raises Timeout if its idle status was lost
        assert run.error == ""
        run = sub.run_cell("x + 1\n", want_result=True)
        assert run.result == "4"
    assert late_iopub["dropped"] > 0  # the subscription really was late
