"""The lab a learner opens is in Chinese, without the Jupyter news popup, and can be
switched back to English: the defaults the course installs into its environment
(``jupyter-settings/bleu-lesson.json``, in ``{sys.prefix}/share/jupyter/lab/settings/
overrides.d/``). The test server has empty user settings, so only those defaults apply."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

NEWS_QUESTIONS = ("Would you like to get notified about official Jupyter news?",
                  "您是否希望接收有关官方 Jupyter 新闻的通知？")


def test_the_defaults_are_installed_in_the_environment():
    installed = (Path(sys.prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.d"
                 / "bleu-lesson.json")
    source = Path(__file__).resolve().parents[2] / "jupyter-settings" / "bleu-lesson.json"
    assert installed.is_file(), f"{installed} is missing: run `make venv`"
    assert installed.read_text(encoding="utf-8") == source.read_text(encoding="utf-8")


def test_the_lab_defaults_come_from_the_environment(lab):
    plugin = lab.api("/lab/api/settings/@jupyterlab/translation-extension:plugin")
    # the environment's override is the schema's default; the user has set nothing
    assert plugin["schema"]["properties"]["locale"]["default"] == "zh_CN", plugin
    assert plugin["raw"].strip() in ("", "{}")
    notification = lab.api("/lab/api/settings/@jupyterlab/apputils-extension:notification")
    assert notification["schema"]["properties"]["fetchNews"]["default"] == "false"
    # English stays available: Settings > Language lists both
    languages = lab.api("/lab/api/translations")["data"]
    assert {"en", "zh_CN"} <= set(languages)


def test_the_menu_bar_reads_chinese_and_no_news_popup(lab, page):
    page.goto(f"{lab.url}/lab/workspaces/e2e-language?reset&token={lab.token}",
              wait_until="domcontentloaded")
    menu_bar = page.locator("#jp-menu-panel .lm-MenuBar-itemLabel")
    menu_bar.first.wait_for(state="visible", timeout=60_000)
    assert menu_bar.first.inner_text() == "文件"
    labels = menu_bar.all_inner_texts()
    assert "设置" in labels and "File" not in labels
    # Settings > Language: the way back to English
    page.locator("#jp-menu-panel .lm-MenuBar-item", has_text="设置").click()
    language = page.locator(".lm-Menu-itemLabel", has_text="语言").first
    language.wait_for(state="visible", timeout=10_000)
    language.hover()
    page.locator(".lm-Menu-itemLabel", has_text="English").first.wait_for(
        state="visible", timeout=10_000)
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    page.wait_for_timeout(4000)  # the news question would show within a second or two
    for question in NEWS_QUESTIONS:
        assert page.get_by_text(question).count() == 0, question
