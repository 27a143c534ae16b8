"""``load_wmt22_human``: the WMT22 zh-en human judgments, parsed as the raw files say.

The raw files are read here independently with the ``csv`` module; the loader must give the
same numbers, the same significance table and map every organiser id (``NAME.N``) to a
system of the test set. The folder/cache/checksum paths run on a copy of the real files in a
temporary folder; the one download test is served from 127.0.0.1. Nothing leaves the machine.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import http.server
import shutil
import threading
from pathlib import Path

import pytest
from notebook_tools import data_skip_reason

from bleu_lesson.data import datasets
from bleu_lesson.data.datasets import (
    WMT22_ENV_VAR,
    DatasetNotFoundError,
    load_wmt22_human,
)

pytestmark = pytest.mark.wmt22

NAMES = [name for name, _ in datasets.WMT22_HUMAN_FILES.values()]


@pytest.fixture(scope="module")
def human_dir(wmt22_dir) -> Path:
    folder = wmt22_dir / "humaneval"
    if not folder.is_dir():
        pytest.skip(data_skip_reason(f"{folder} does not exist"))
    return folder


def read_space_csv(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return [[cell for cell in row if cell != ""]
                for row in csv.reader(f, delimiter=" ") if any(row)]


def test_sha256_of_the_files_is_the_readmes(human_dir, wmt22_dir):
    readme = (wmt22_dir / "README.md").read_text(encoding="utf-8")
    listed = {}
    for line in readme.splitlines():
        parts = line.split()
        if len(parts) == 2 and len(parts[0]) == 64 and parts[1].endswith(".csv"):
            listed[parts[1]] = parts[0]
    assert sorted(listed) == sorted(NAMES)
    for name, sha in datasets.WMT22_HUMAN_FILES.values():
        assert hashlib.sha256((human_dir / name).read_bytes()).hexdigest() == sha == listed[name]


def test_system_scores_match_the_raw_files(human_dir):
    human = load_wmt22_human("zh-en", download=False)
    ranking = read_space_csv(human_dir / "ad-sys-ranking-zh-en-z-names.csv")
    scores = {row[3]: row for row in read_space_csv(human_dir / "ad-sys-scores-zh-en.csv")[1:]}
    assert list(human.scores) == [row[5] for row in ranking]  # published order, best first
    for raw, z, n, n_all, ident, name in ranking:
        got = human.scores[name]
        assert got.id == ident and got.system == name
        assert abs(got.raw - float(raw)) <= 0.05  # the ranking prints one decimal
        assert got.z_published == float(z)
        assert got.z == float(scores[ident][1]) and got.raw == float(scores[ident][0])
        assert (got.n, got.n_judgments) == (int(n), int(n_all)) == \
            (int(scores[ident][2]), int(scores[ident][4]))
    assert human.scores["HUMAN-B"].z == pytest.approx(0.133807529709882, abs=0)
    assert human.scores["NiuTrans"].z_published == -0.164
    # best first by the published z (ties keep the published order)
    zs = [s.z_published for s in human.scores.values()]
    assert zs == sorted(zs, reverse=True)


def test_significance_table_matches_the_raw_files(human_dir):
    human = load_wmt22_human("zh-en", download=False)
    p_rows = read_space_csv(human_dir / "adwilcox-zhen.csv")
    d_rows = read_space_csv(human_dir / "ad-DA-diff-wilcoxon-rs-zhen.csv")
    ids = p_rows[0]
    name = {i: i.rsplit(".", 1)[0] for i in ids}
    assert len(human.p_values) == len(ids) ** 2 == 169
    for p_row, d_row in zip(p_rows[1:], d_rows[1:]):
        for col, p, d in zip(ids, p_row[1:], d_row[1:]):
            key = name[p_row[0]], name[col]
            assert human.p_values[key] == float(p)
            if d == "-":
                assert key[0] == key[1] and human.stars[key] == ""
            else:
                assert human.differences[key] == float(d.rstrip("*"))
                assert human.stars[key] == "*" * (len(d) - len(d.rstrip("*")))
    # two cells read off the table by eye
    assert human.stars["JDExploreAcademy", "Online-A"] == "*"
    assert human.p_values["JDExploreAcademy", "Online-A"] == 0.0379398365460719
    assert human.better("JDExploreAcademy", "Online-A")
    assert not human.better("Online-A", "JDExploreAcademy")
    assert not human.better("JDExploreAcademy", "HuaweiTSC")
    assert sum(human.better(a, b) for a, b in human.p_values) == \
        sum(1 for row in d_rows[1:] for cell in row[1:] if cell.endswith("*"))


def test_every_system_maps_to_the_test_set(wmt22_dir):
    human = load_wmt22_human("zh-en", download=False)
    test_set = datasets.load_wmt22("zh-en", download=False)
    systems = [s for s in human.systems if s not in human.references]
    assert sorted(systems) == sorted(test_set.systems)
    assert human.references == {"HUMAN-B": "B"}
    assert set(human.references.values()) <= set(test_set.references)
    for score in human.scores.values():
        assert score.id.startswith(score.system + ".")


# --- where the files come from ---------------------------------------------------------

@pytest.fixture
def copy_dir(human_dir, tmp_path, monkeypatch) -> Path:
    """A copy of the human files in tmp/wmt22/humaneval; no env var, an empty cache."""
    folder = tmp_path / "wmt22" / "humaneval"
    folder.mkdir(parents=True)
    for name in NAMES:
        shutil.copy(human_dir / name, folder / name)
    monkeypatch.delenv(WMT22_ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    return folder


def test_data_dir_env_var_and_subfolder(copy_dir, monkeypatch):
    assert len(load_wmt22_human("zh-en", copy_dir.parent).scores) == 13   # .../humaneval
    assert len(load_wmt22_human("zh-en", copy_dir).scores) == 13          # the folder itself
    monkeypatch.setenv(WMT22_ENV_VAR, str(copy_dir.parent))
    assert len(load_wmt22_human("zh-en").scores) == 13


def test_missing_files_say_where_they_looked(copy_dir, tmp_path):
    with pytest.raises(DatasetNotFoundError) as info:
        load_wmt22_human("zh-en", tmp_path / "nowhere")
    text = str(info.value)
    assert "ad-sys-ranking-zh-en-z-names.csv" in text and "download=False" in text
    assert "nowhere" in text and WMT22_ENV_VAR in text


def test_a_changed_byte_is_caught(copy_dir):
    path = copy_dir / "adwilcox-zhen.csv"
    data = bytearray(path.read_bytes())
    data[-3] = ord("9") if data[-3] != ord("9") else ord("8")
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="adwilcox-zhen.csv.*corrupted"):
        load_wmt22_human("zh-en", copy_dir)


def test_an_unknown_system_is_an_error(copy_dir):
    for name in ("ad-sys-ranking-zh-en-z-names.csv", "ad-sys-scores-zh-en.csv",
                 "adwilcox-zhen.csv", "ad-DA-diff-wilcoxon-rs-zhen.csv"):
        path = copy_dir / name
        path.write_text(path.read_text(encoding="utf-8").replace("NiuTrans", "NoSuchMT"),
                        encoding="utf-8")
    with pytest.raises(ValueError, match="NoSuchMT.9.*matches no system"):
        load_wmt22_human("zh-en", copy_dir, verify=False)


def test_stars_must_agree_with_p_values(copy_dir):
    path = copy_dir / "ad-DA-diff-wilcoxon-rs-zhen.csv"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("0.06* 0.06* 0.06 ", "0.06* 0.06 0.06 ", 1), encoding="utf-8")
    with pytest.raises(ValueError, match="stars"):
        load_wmt22_human("zh-en", copy_dir, verify=False)


def test_pair_must_be_known():
    with pytest.raises(ValueError, match="pair must be one of 'zh-en'"):
        load_wmt22_human("en-zh")


def test_downloads_from_the_pinned_commit_into_the_cache(copy_dir, tmp_path, monkeypatch):
    """Served from 127.0.0.1; the URL keeps the pinned commit and folder."""
    root = tmp_path / "served"
    served = (root / datasets.WMT22_HUMAN_REPOSITORY / datasets.WMT22_HUMAN_COMMIT
              / datasets.WMT22_HUMAN_FOLDER)
    served.mkdir(parents=True)
    for name in NAMES:
        shutil.copy(copy_dir / name, served / name)
    seen = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            seen.append(self.path)

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        monkeypatch.setenv(datasets.DATA_URL_ENV_VAR, f"http://127.0.0.1:{port}")
        cache = tmp_path / "cache"
        with pytest.raises(DatasetNotFoundError):
            load_wmt22_human("zh-en", cache_dir=cache)  # download=False is the default
        human = load_wmt22_human("zh-en", cache_dir=cache, download=True)
        assert len(human.scores) == 13
        assert sorted(p.name for p in (cache / "humaneval").iterdir()) == sorted(
            n for n in NAMES if n != "ad-seg-scores-zh-en.csv")
        assert all(datasets.WMT22_HUMAN_COMMIT in path for path in seen)
        count = len(seen)
        load_wmt22_human("zh-en", cache_dir=cache, download=True)
        assert len(seen) == count, "downloaded again although the cache has the files"
    finally:
        server.shutdown()
