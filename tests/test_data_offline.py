"""`bleu-lesson data` (`make data`) without a network: one line that names the files still
missing and where they go (the human judgments in the `humaneval/` subfolder), and no empty
cache folder left behind.

Nothing reaches the internet: downloads go to a closed port on 127.0.0.1 (connection
refused) or to a local HTTP server that answers every request with 503.
"""

from __future__ import annotations

import http.server
import shutil
import socket
import threading

import pytest

from bleu_lesson.__main__ import main
from bleu_lesson.data import datasets

HUMAN = sorted(datasets.dataset("wmt22-human").files)  # the five files of the README
FIRST_TEST_SET_FILE = "generaltest2022.zh-en.src.zh"


@pytest.fixture
def offline(monkeypatch, tmp_path):
    """Downloads go to a port nothing listens on; the cache is $XDG_CACHE_HOME=tmp/xdg,
    which does not exist yet; no BLEU_LESSON_WMT22_DIR."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv(datasets.DATA_URL_ENV_VAR, f"http://127.0.0.1:{port}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(datasets.WMT22_ENV_VAR, raising=False)
    return tmp_path / "xdg"


@pytest.fixture
def refusing(offline, monkeypatch):
    """A real server on 127.0.0.1 that refuses to serve: 503 for every path."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            self.send_error(503, "Service Unavailable")

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}"
    monkeypatch.setenv(datasets.DATA_URL_ENV_VAR, url)
    yield url
    httpd.shutdown()
    httpd.server_close()


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_human_judgments_offline_name_every_file_and_the_subfolder(offline, capsys):
    assert main(["data", "wmt22-human", "-q"]) == 2
    err = _one_line(capsys)
    assert err.startswith("bleu-lesson: error: cannot reach http://127.0.0.1:")
    assert "Connection refused" in err and "Offline?" in err
    assert "5 of the 5 files of wmt22-human are missing" in err
    assert all(name in err for name in HUMAN), err
    cache = offline / "bleu_lesson" / "wmt22" / "humaneval"
    assert f"copy the files into {cache}" in err
    assert "humaneval/ subfolder of any folder and set BLEU_LESSON_WMT22_DIR" in err
    assert not offline.exists()  # no empty xdg/bleu_lesson/wmt22/humaneval left behind


def test_all_offline_names_the_test_set_files_and_the_human_subfolder(offline, capsys):
    assert main(["data", "-q"]) == 2
    err = _one_line(capsys)
    total = len(datasets.dataset("wmt22").files)
    assert f"{total} of the {total} files of wmt22 are missing" in err
    assert FIRST_TEST_SET_FILE in err and f"and {total - 5} more" in err
    assert "wmt22-human go in its humaneval/ subfolder" in err
    assert "wmt22-human was not tried: its 5 files are missing too" in err, err
    assert not offline.exists()


def test_a_cache_folder_that_existed_is_kept(offline, capsys):
    offline.mkdir()  # the user's own $XDG_CACHE_HOME: never removed, only what data made
    assert main(["data", "wmt22-human", "-q"]) == 2
    capsys.readouterr()
    assert offline.is_dir() and list(offline.iterdir()) == []


def test_files_already_there_are_kept_and_only_the_others_named(offline, capsys,
                                                                 wmt22_human_dir):
    cache = offline / "bleu_lesson" / "wmt22" / "humaneval"
    cache.mkdir(parents=True)
    have, lack = HUMAN[:3], HUMAN[3:]
    for name in have:
        shutil.copyfile(wmt22_human_dir / name, cache / name)
    assert main(["data", "wmt22-human", "-q"]) == 2
    err = _one_line(capsys)
    assert "2 of the 5 files of wmt22-human are missing" in err, err
    named = err.split("are missing (", 1)[1].split(")", 1)[0]
    assert sorted(named.split(", ")) == lack
    assert sorted(p.name for p in cache.iterdir()) == have  # nothing removed


def test_a_server_that_refuses_leaves_nothing(refusing, offline, capsys):
    assert main(["data", "wmt22-human", "-q"]) == 2
    err = _one_line(capsys)
    assert err.startswith(f"bleu-lesson: error: cannot reach {refusing} for ")
    assert "503" in err and all(name in err for name in HUMAN)
    assert not offline.exists()


def test_missing_files_is_empty_when_a_folder_has_them_all(offline, wmt22_dir, monkeypatch):
    assert datasets.missing_files("wmt22-human") == HUMAN
    monkeypatch.setenv(datasets.WMT22_ENV_VAR, str(wmt22_dir))
    assert datasets.missing_files("wmt22-human") == []
    assert datasets.missing_files("wmt22") == []


@pytest.fixture
def one_short(offline, monkeypatch, tmp_path, wmt22_dir, wmt22_human_dir):
    """BLEU_LESSON_WMT22_DIR holds all but the last test-set file and all but the last
    human file; the cache is empty. Returns (folder, the test-set file, the human file)."""
    folder = tmp_path / "part"
    (folder / "humaneval").mkdir(parents=True)
    test_set = list(datasets.dataset("wmt22").files)
    for name in test_set[:-1]:
        (folder / name).symlink_to(wmt22_dir / name)
    for name in HUMAN[:-1]:
        (folder / "humaneval" / name).symlink_to(wmt22_human_dir / name)
    monkeypatch.setenv(datasets.WMT22_ENV_VAR, str(folder))
    return folder, test_set[-1], HUMAN[-1]


def test_a_file_is_missing_only_when_it_is_in_no_folder_looked_in(one_short):
    folder, test_file, human_file = one_short
    assert datasets.missing_files("wmt22") == [test_file]
    assert datasets.missing_files("wmt22-human") == [human_file]


def test_offline_one_file_short_counts_one_names_the_folders_and_the_human_file(
        one_short, offline, capsys):
    """Before: "31 of the 31 files of wmt22 are missing (<present files>)", no folder named,
    and "wmt22-human was not tried: its 5 files are missing too"."""
    folder, test_file, human_file = one_short
    assert main(["data", "-q"]) == 2
    err = _one_line(capsys)
    total = len(datasets.dataset("wmt22").files)
    assert f"1 of the {total} files of wmt22 is missing ({test_file})" in err, err
    assert f"copy it into {folder} (BLEU_LESSON_WMT22_DIR)" in err, err
    assert f"looked in {folder} (BLEU_LESSON_WMT22_DIR), " in err, err
    cache = offline / "bleu_lesson" / "wmt22"
    assert f"{cache} (cache, does not exist)" in err, err
    assert (f"wmt22-human was not tried: 1 of its 5 files is missing too ({human_file}; "
            "it goes in the humaneval/ subfolder)") in err, err


def test_a_variable_naming_no_folder_is_named_as_such(offline, monkeypatch, tmp_path, capsys):
    nowhere = tmp_path / "nowhere"
    monkeypatch.setenv(datasets.WMT22_ENV_VAR, str(nowhere))
    assert main(["data", "wmt22-human", "-q"]) == 2
    err = _one_line(capsys)
    assert f"{nowhere / 'humaneval'} (BLEU_LESSON_WMT22_DIR, does not exist)" in err, err
    assert "5 of the 5 files of wmt22-human are missing" in err
