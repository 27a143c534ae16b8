"""``bleu_lesson.data.datasets``: the running examples, checked against NLTK, and the WMT22 loader.

The loader's paths (local folder, corrupted file, missing file, download, offline, corrupted
download, dropped connection) run twice: on a tiny synthetic WMT22 folder with its own
manifest, so they run everywhere, and on the real data when it is available. Downloads go
through pooch to a real HTTP server on 127.0.0.1 serving copies of the files
(``BLEU_LESSON_DATA_URL`` points at it); nothing reaches the internet, and the user cache is
a temporary folder.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import http.server
import re
import shutil
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

import bleu_lesson
from bleu_lesson.data import datasets
from bleu_lesson.data.datasets import (
    EXAMPLES,
    WMT22_ENV_VAR,
    DatasetNotFoundError,
    build_manifest,
    load_wmt22,
)

# --- the running examples ---------------------------------------------------------------

# Token lists copied from NLTK's nltk.translate.bleu_score docstrings (no final period).
NLTK_HYPOTHESIS1 = ['It', 'is', 'a', 'guide', 'to', 'action', 'which', 'ensures', 'that',
                    'the', 'military', 'always', 'obeys', 'the', 'commands', 'of', 'the',
                    'party']
NLTK_HYPOTHESIS2 = ['It', 'is', 'to', 'insure', 'the', 'troops', 'forever', 'hearing', 'the',
                    'activity', 'guidebook', 'that', 'party', 'direct']
NLTK_REFERENCES = [
    ['It', 'is', 'a', 'guide', 'to', 'action', 'that', 'ensures', 'that', 'the', 'military',
     'will', 'forever', 'heed', 'Party', 'commands'],
    ['It', 'is', 'the', 'guiding', 'principle', 'which', 'guarantees', 'the', 'military',
     'forces', 'always', 'being', 'under', 'the', 'command', 'of', 'the', 'Party'],
    ['It', 'is', 'the', 'practical', 'guide', 'for', 'the', 'army', 'always', 'to', 'heed',
     'the', 'directions', 'of', 'the', 'party'],
]


@pytest.fixture(scope="module")
def nltk_bleu():
    return pytest.importorskip("nltk.translate.bleu_score")


def lower_tokens(text: str) -> list[str]:
    return text.lower().split()


def ours(example: datasets.Example) -> bleu_lesson.BleuResult:
    """Conventions' reference setting: lowercased, whitespace tokens, no smoothing."""
    return bleu_lesson.sentence_bleu(example.candidate, example.references, tokenizer="none",
                                     lowercase=True, smoothing="none")


def test_examples_are_the_course_constants():
    assert list(EXAMPLES) == ["seed_single", "seed_multi", "papineni_the",
                              "papineni_guide_1", "papineni_guide_2"]
    assert EXAMPLES["seed_single"].candidate == datasets.SEED_CANDIDATE == "The cat is on the mat"
    assert EXAMPLES["seed_single"].references == ("The cat is sitting on the mat",)
    assert datasets.SEED_REFERENCES[0] == datasets.SEED_REFERENCE[0]
    assert EXAMPLES["seed_multi"].references == ("The cat is sitting on the mat",
                                                 "A cat is on the mat", "The cat lies on the mat")
    assert EXAMPLES["papineni_the"].references == ("The cat is on the mat.",
                                                   "There is a cat on the mat.")
    for example in EXAMPLES.values():
        assert example.source
        with pytest.raises(AttributeError):
            example.candidate = "changed"  # frozen


def test_papineni_guide_texts_are_nltks_tokens():
    assert EXAMPLES["papineni_guide_1"].candidate.split() == NLTK_HYPOTHESIS1
    assert EXAMPLES["papineni_guide_2"].candidate.split() == NLTK_HYPOTHESIS2
    for example in (EXAMPLES["papineni_guide_1"], EXAMPLES["papineni_guide_2"]):
        assert [r.split() for r in example.references] == NLTK_REFERENCES


def test_papineni_candidate_1_is_0_5046(nltk_bleu):
    example = EXAMPLES["papineni_guide_1"]
    result = ours(example)
    assert result.matches == (17, 10, 7, 4)
    assert result.totals == (18, 17, 16, 15)
    assert (result.bp, result.hyp_len, result.ref_len) == (1.0, 18, 18)
    assert f"{result.score:.4f}" == "0.5046"

    refs = [lower_tokens(r) for r in example.references]
    hyp = lower_tokens(example.candidate)
    assert result.score == pytest.approx(nltk_bleu.sentence_bleu(refs, hyp), abs=1e-12)
    nltk_p = [nltk_bleu.modified_precision(refs, hyp, n) for n in range(1, 5)]
    assert [(p.numerator, p.denominator) for p in nltk_p] == [(17, 18), (10, 17), (7, 16),
                                                              (4, 15)]
    assert list(result.precisions) == [17 / 18, 10 / 17, 7 / 16, 4 / 15]


def test_papineni_candidate_2_against_nltk(nltk_bleu):
    example = EXAMPLES["papineni_guide_2"]
    result = ours(example)
    refs = [lower_tokens(r) for r in example.references]
    hyp = lower_tokens(example.candidate)
    nltk_p = [nltk_bleu.modified_precision(refs, hyp, n) for n in range(1, 5)]
    # NLTK's fractions are not reduced: numerator and denominator are the counts
    assert [(p.numerator, p.denominator) for p in nltk_p] == list(
        zip(result.matches, result.totals, strict=True))
    assert result.matches == (8, 1, 0, 0)
    ref_len = nltk_bleu.closest_ref_length(refs, len(hyp))
    assert result.ref_len == ref_len
    assert result.bp == pytest.approx(nltk_bleu.brevity_penalty(ref_len, len(hyp)), abs=1e-15)
    assert result.score == 0.0  # no 3-gram match, no smoothing (NLTK's method0 gives ~1e-155)


def test_papineni_the_modified_unigram_precision_is_2_7(nltk_bleu):
    example = EXAMPLES["papineni_the"]
    result = ours(example)
    assert (result.matches[0], result.totals[0]) == (2, 7)
    refs = [lower_tokens(r) for r in example.references]
    p1 = nltk_bleu.modified_precision(refs, lower_tokens(example.candidate), 1)
    assert (p1.numerator, p1.denominator) == (2, 7)


def test_seed_multi_is_0_9036(nltk_bleu):
    example = EXAMPLES["seed_multi"]
    result = ours(example)
    assert f"{result.score:.4f}" == "0.9036"
    refs = [lower_tokens(r) for r in example.references]
    nltk_score = nltk_bleu.sentence_bleu(refs, lower_tokens(example.candidate))
    assert result.score == pytest.approx(nltk_score, abs=1e-12)


def test_example_checks_its_fields():
    with pytest.raises(TypeError, match="single str"):
        datasets.Example("a b", "a b", "test")
    with pytest.raises(ValueError, match="non-empty"):
        datasets.Example("a b", (), "test")
    assert datasets.Example("a", ["a"], "test").references == ("a",)


def test_datasets_imports_no_third_party_library():
    code = ("import sys, bleu_lesson.data.datasets; "
            "print(sorted(m for m in ('sacrebleu', 'nltk', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


# --- the WMT22 loader: fixtures -------------------------------------------------------------

TINY = {  # a zh-en "test set" of 3 segments; one system has an empty segment, like Online-W
    "src.zh": "猫坐在垫子上。\n今天天气很好。\n谢谢。\n",
    "ref.A.en": "The cat sat on the mat.\nThe weather is nice today.\nThank you.\n",
    "ref.B.en": "A cat is sitting on the mat.\nIt is a fine day.\nThanks.\n",
    "hyp.Sys-1.en": "The cat sits on the mat.\nThe weather is good today.\nThanks.\n",
    "hyp.Sys-2.en": "Cat on mat.\n\nThank you.\n",
}


class FileServer:
    """A real HTTP server on 127.0.0.1 serving ``routes`` (URL path -> bytes).

    Paths in ``drop`` send their headers and half the body, then close the connection;
    every requested path is appended to ``requests``.
    """

    def __init__(self) -> None:
        self.routes: dict[str, bytes] = {}
        self.drop: set[str] = set()
        self.requests: list[str] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                server.requests.append(self.path)
                body = server.routes.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.path in server.drop:
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def add(self, spec: datasets.RemoteDataset, folder: Path, corrupt: tuple[str, ...] = ()):
        """Serve every file of ``spec`` from ``folder`` at its pinned URL path."""
        for name, entry in spec.files.items():
            body = (folder / name).read_bytes()
            if name in corrupt:
                body = b"<html>404: Not Found</html>\n" + body  # a captive portal, say
            self.routes[f"/{spec.repository}/{spec.commit}/{entry.upstream_path}"] = body

    def names(self) -> list[str]:
        return sorted(p.rsplit("/", 1)[1] for p in self.requests)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server(monkeypatch):
    s = FileServer()
    monkeypatch.setenv(datasets.DATA_URL_ENV_VAR, s.url)
    yield s
    s.close()


@pytest.fixture(autouse=True)
def no_download(monkeypatch, tmp_path):
    """No test may reach the internet, nor the user's real cache: downloads go to a closed
    port unless a test starts ``server``."""
    with socket.socket() as probe:  # a port that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv(datasets.DATA_URL_ENV_VAR, f"http://127.0.0.1:{port}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


@dataclass
class Data:
    folder: Path  # holds every file of `pair`
    pair: str
    manifest: dict

    def names(self) -> list[str]:
        return list(datasets._pair_files(self.manifest, self.pair).values())

    def copy_to(self, dest: Path, skip: tuple[str, ...] = ()) -> Path:
        dest.mkdir()
        for name in self.names():
            if name not in skip:
                shutil.copyfile(self.folder / name, dest / name)
        return dest

    def spec(self) -> datasets.RemoteDataset:
        """The registry entry, restricted to this pair's files."""
        full = datasets.dataset("wmt22")
        return dataclasses.replace(full, files={n: full.files[n] for n in self.names()})


@pytest.fixture(params=["tiny", pytest.param("wmt22", marks=pytest.mark.wmt22)])
def data(request, tmp_path, monkeypatch) -> Data:
    """A folder with one pair's files and the manifest the loader checks them against."""
    if request.param == "wmt22":
        folder = request.getfixturevalue("wmt22_dir")
        manifest = datasets._manifest()
    else:
        folder = tmp_path / "tiny"
        folder.mkdir()
        for suffix, text in TINY.items():
            (folder / f"generaltest2022.zh-en.{suffix}").write_text(text, encoding="utf-8")
        manifest = build_manifest(folder, pairs={"zh-en": "en"})
        monkeypatch.setattr(datasets, "_manifest", lambda: copy.deepcopy(manifest))
    monkeypatch.delenv(WMT22_ENV_VAR, raising=False)  # only the folders a test names
    return Data(folder, "zh-en", manifest)


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.is_file()) if folder.exists() else []


# --- the WMT22 loader: the paths, on tiny and real data -------------------------------------

def test_loads_a_local_folder(data, tmp_path):
    ds = load_wmt22(data.pair, data.folder, cache_dir=tmp_path / "cache", download=False)
    n = data.manifest["pairs"][data.pair]["segments"]
    assert len(ds) == len(ds.source) == n
    assert list(ds.references) == ["A", "B"]
    assert list(ds.systems) == list(data.manifest["pairs"][data.pair]["systems"])
    assert all(len(v) == n for v in (*ds.references.values(), *ds.systems.values()))
    assert ds.references_for("both")[0] == [ds.references["A"][0], ds.references["B"][0]]
    assert ds.references_for("B")[-1] == [ds.references["B"][-1]]
    assert ds.reference_streams("both") == [list(ds.references["A"]), list(ds.references["B"])]
    assert ds.tokenizer == "13a"
    assert files_in(tmp_path / "cache") == []


def test_environment_variable_and_precedence(data, tmp_path, monkeypatch):
    monkeypatch.setenv(WMT22_ENV_VAR, str(data.folder))
    from_env = load_wmt22(data.pair, cache_dir=tmp_path / "cache", download=False)
    assert from_env == load_wmt22(data.pair, data.folder, download=False)
    # data_dir comes first: a corrupted file there is reported, not replaced by the env's copy
    bad = data.copy_to(tmp_path / "bad")
    name = data.names()[0]
    (bad / name).write_bytes(b"x" + (bad / name).read_bytes())
    with pytest.raises(ValueError, match=name):
        load_wmt22(data.pair, bad, cache_dir=tmp_path / "cache", download=False)


def test_checksum_catches_a_changed_byte(data, tmp_path):
    copy_dir = data.copy_to(tmp_path / "copy")
    name = data.manifest["pairs"][data.pair]["references"]["B"]
    raw = bytearray((copy_dir / name).read_bytes())
    i = next(i for i, b in enumerate(raw) if chr(b).isalpha())
    raw[i] ^= 0x20  # swap the case of one ASCII letter: still UTF-8, same line count
    (copy_dir / name).write_bytes(bytes(raw))
    expected = data.manifest["files"][name]["sha256"]
    actual = hashlib.sha256(raw).hexdigest()
    with pytest.raises(ValueError, match="corrupted or a different version") as info:
        load_wmt22(data.pair, copy_dir, cache_dir=tmp_path / "cache", download=False)
    message = str(info.value)
    assert name in message and expected in message and actual in message
    # verify=False trusts the files
    ds = load_wmt22(data.pair, copy_dir, cache_dir=tmp_path / "cache", download=False,
                    verify=False)
    assert ds.references["B"] != load_wmt22(data.pair, data.folder).references["B"]


def test_windows_line_endings_are_explained(data, tmp_path):
    copy_dir = data.copy_to(tmp_path / "copy")
    path = copy_dir / data.manifest["pairs"][data.pair]["source"]
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    with pytest.raises(ValueError, match=rf"{path.name} .*Windows line endings"):
        load_wmt22(data.pair, copy_dir, cache_dir=tmp_path / "cache", download=False)


def test_line_counts_must_agree(data, tmp_path):
    copy_dir = data.copy_to(tmp_path / "copy")
    name = data.names()[-1]
    text = (copy_dir / name).read_text(encoding="utf-8")
    (copy_dir / name).write_text(text[: text.rstrip("\n").rfind("\n") + 1], encoding="utf-8")
    with pytest.raises(ValueError, match=rf"{name} has \d+ lines"):
        load_wmt22(data.pair, copy_dir, cache_dir=tmp_path / "cache", download=False,
                   verify=False)


def test_missing_file_without_download(data, tmp_path):
    missing = data.names()[-1]
    copy_dir = data.copy_to(tmp_path / "copy", skip=(missing,))
    cache = tmp_path / "cache"
    with pytest.raises(DatasetNotFoundError) as info:
        load_wmt22(data.pair, copy_dir, cache_dir=cache, download=False)
    assert isinstance(info.value, FileNotFoundError)
    message = str(info.value)
    for part in (missing, "1 of", str(copy_dir), str(cache), "does not exist", "download=False",
                 WMT22_ENV_VAR, "bleu-lesson data wmt22", "wmt-conference/wmt22-news-systems"):
        assert part in message, part
    assert files_in(cache) == []


def test_downloads_into_the_cache(data, tmp_path, server):
    server.add(data.spec(), data.folder)
    cache = tmp_path / "cache"
    ds = load_wmt22(data.pair, cache_dir=cache)
    assert server.names() == sorted(data.names())
    commit = "20240a2e96a50e823ea8cdf37fd8af52547146e3"  # the full commit, not the short one
    assert all(p.startswith(f"/wmt-conference/wmt22-news-systems/{commit}/txt/")
               for p in server.requests)
    assert files_in(cache) == sorted(data.names())  # and no temporary file left behind
    assert ds == load_wmt22(data.pair, data.folder)
    # the second time, the cache is enough
    before = len(server.requests)
    assert load_wmt22(data.pair, cache_dir=cache) == ds
    assert len(server.requests) == before


def test_downloads_only_the_missing_files(data, tmp_path, server):
    server.add(data.spec(), data.folder)
    missing = data.manifest["pairs"][data.pair]["source"]
    copy_dir = data.copy_to(tmp_path / "copy", skip=(missing,))
    ds = load_wmt22(data.pair, copy_dir, cache_dir=tmp_path / "cache")
    assert server.names() == [missing]
    assert "/txt/sources/" in server.requests[0]
    assert files_in(tmp_path / "cache") == [missing]
    assert ds.source == load_wmt22(data.pair, data.folder).source


def test_offline_says_so(data, tmp_path):
    cache = tmp_path / "cache"  # the autouse fixture points downloads at a closed port
    with pytest.raises(DatasetNotFoundError) as info:
        load_wmt22(data.pair, cache_dir=cache)
    message = str(info.value)
    first = message.splitlines()[0]
    assert first.startswith("cannot reach http://127.0.0.1:")
    for part in ("offline", f"copy the files into {cache}", WMT22_ENV_VAR):
        assert part in first, part
    for part in ("bleu-lesson data wmt22", "make data", str(cache)):
        assert part in message, part
    assert files_in(cache) == []


def test_corrupted_download_is_rejected_and_not_kept(data, tmp_path, server):
    name = data.names()[0]
    server.add(data.spec(), data.folder, corrupt=(name,))
    cache = tmp_path / "cache"
    with pytest.raises(ValueError, match="corrupted or a different version") as info:
        load_wmt22(data.pair, cache_dir=cache)
    assert name in str(info.value)
    assert data.manifest["files"][name]["sha256"] in str(info.value)
    assert name not in files_in(cache)


def test_dropped_connection_keeps_nothing(data, tmp_path, server):
    spec = data.spec()
    server.add(spec, data.folder)
    name = data.names()[1]
    server.drop.add(f"/{spec.repository}/{spec.commit}/{spec.files[name].upstream_path}")
    cache = tmp_path / "cache"
    with pytest.raises(DatasetNotFoundError, match=rf"cannot reach .*{re.escape(name)}"):
        load_wmt22(data.pair, cache_dir=cache)
    assert name not in files_in(cache)
    assert not any(p.name.startswith("tmp") for p in cache.iterdir())
    # the next attempt, with a working connection, completes the cache
    server.drop.clear()
    assert load_wmt22(data.pair, cache_dir=cache) == load_wmt22(data.pair, data.folder)
    assert files_in(cache) == sorted(data.names())


def test_a_corrupted_cache_file_is_downloaded_again(data, tmp_path, server):
    server.add(data.spec(), data.folder)
    cache = tmp_path / "cache"
    folder = fetch_dataset_of(data, cache)
    name = data.names()[-1]
    (folder / name).write_bytes(b"garbage\n")
    server.requests.clear()
    fetch_dataset_of(data, cache)
    assert server.names() == [name]
    assert (cache / name).read_bytes() == (data.folder / name).read_bytes()


def fetch_dataset_of(data: Data, cache: Path) -> Path:
    """``fetch_dataset`` on a registry entry holding only this pair's files."""
    spec = data.spec()
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(datasets.DATASETS, "wmt22", lambda: spec)
        return datasets.fetch_dataset("wmt22", cache_dir=cache, progressbar=False)


# --- the registry: fetch_dataset, locate, a new dataset, the human judgments -----------------

@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A new dataset, added to the registry with one entry."""
    folder = tmp_path / "toy-upstream"
    folder.mkdir()
    files = {}
    for name, text in {"a.txt": "alpha\n", "b.csv": "x y\n1 2\n"}.items():
        (folder / name).write_text(text, encoding="utf-8")
        files[name] = datasets.RemoteFile(f"data/{name}", hashlib.sha256(text.encode()).hexdigest(),
                                          len(text))
    spec = datasets.RemoteDataset("toy", "a toy", "someone/toy", "0" * 40, "toy", files)
    monkeypatch.setitem(datasets.DATASETS, "toy", lambda: spec)
    return spec, folder


def test_a_dataset_is_one_registry_entry(toy, tmp_path, server, monkeypatch):
    spec, upstream = toy
    server.add(spec, upstream)
    cache = tmp_path / "cache"
    folder = datasets.fetch_dataset("toy", cache_dir=cache)
    assert folder == cache / "toy"
    assert files_in(folder) == ["a.txt", "b.csv"]
    assert server.requests == ["/someone/toy/" + "0" * 40 + "/data/a.txt",
                               "/someone/toy/" + "0" * 40 + "/data/b.csv"]
    assert datasets.fetch_dataset("toy", cache_dir=cache) == folder  # idempotent
    assert len(server.requests) == 2
    assert datasets.locate("toy", "b.csv", cache_dir=cache) == folder / "b.csv"
    # a folder named by BLEU_LESSON_WMT22_DIR comes before the cache
    local = tmp_path / "local"
    shutil.copytree(upstream, local / "toy")
    monkeypatch.setenv(WMT22_ENV_VAR, str(local))
    assert datasets.fetch_dataset("toy", cache_dir=cache) == local / "toy"
    assert datasets.locate("toy", "a.txt", cache_dir=cache) == local / "toy" / "a.txt"
    with pytest.raises(ValueError, match="'c.txt' is not a file of dataset 'toy'"):
        datasets.locate("toy", "c.txt")
    with pytest.raises(ValueError, match="dataset must be one of 'wmt22', 'wmt22-human'"):
        datasets.fetch_dataset("nope")


def test_fetch_without_download_says_what_to_run(toy, tmp_path):
    with pytest.raises(DatasetNotFoundError) as info:
        datasets.fetch_dataset("toy", cache_dir=tmp_path / "cache", download=False)
    message = str(info.value)
    assert message.startswith("toy data not found: 2 of 2 files are missing")
    assert "bleu-lesson data toy" in message and WMT22_ENV_VAR in message


def test_human_judgments_registry_matches_the_readme():
    spec = datasets.dataset("wmt22-human")
    assert spec.commit == "20240a2e96a50e823ea8cdf37fd8af52547146e3"
    assert spec.repository == "wmt-conference/wmt22-news-systems"
    assert spec.folder == "humaneval"
    assert sorted(spec.files) == ["ad-DA-diff-wilcoxon-rs-zhen.csv", "ad-seg-scores-zh-en.csv",
                                  "ad-sys-ranking-zh-en-z-names.csv", "ad-sys-scores-zh-en.csv",
                                  "adwilcox-zhen.csv"]
    for entry in spec.files.values():
        assert entry.upstream_path.startswith("humaneval/DA/newstest2022-toen/")


@pytest.mark.wmt22
def test_human_judgments_hashes_are_the_files(wmt22_dir, wmt22_human_dir, tmp_path, server,
                                              monkeypatch):
    spec = datasets.dataset("wmt22-human")
    assert wmt22_human_dir == wmt22_dir / "humaneval"  # one folder tree, wherever it is
    for name, entry in spec.files.items():
        data = (wmt22_human_dir / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry.sha256
        assert len(data) == entry.size
    server.add(spec, wmt22_human_dir)
    monkeypatch.delenv(WMT22_ENV_VAR, raising=False)
    folder = datasets.fetch_dataset("wmt22-human", cache_dir=tmp_path / "cache")
    assert folder == tmp_path / "cache" / "humaneval"
    assert files_in(folder) == sorted(spec.files)


def test_data_command_downloads_once(toy, tmp_path, server, capsys):
    spec, upstream = toy
    server.add(spec, upstream)
    from bleu_lesson.__main__ import main

    assert main(["data", "toy"]) == 0
    out = capsys.readouterr().out
    cache = datasets.default_cache_dir() / "toy"
    assert f"toy: 2 files in {cache}" in out
    assert len(server.requests) == 2
    assert main(["data", "toy"]) == 0
    assert len(server.requests) == 2  # idempotent: nothing downloaded again
    assert "toy: 2 files in" in capsys.readouterr().out


def test_data_command_offline_is_one_line(toy, capsys):
    from bleu_lesson.__main__ import main

    assert main(["data", "toy"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("bleu-lesson: error: cannot reach http://127.0.0.1:")
    assert WMT22_ENV_VAR in err and "Traceback" not in err


# --- the WMT22 loader: arguments, the manifest, the real data -------------------------------

def test_pair_must_be_known():
    with pytest.raises(ValueError, match="'zh-en', 'en-zh'.*'de-en'"):
        load_wmt22("de-en")


def test_which_reference_must_be_known(data):
    ds = load_wmt22(data.pair, data.folder)
    with pytest.raises(ValueError, match="'both', 'A', 'B'"):
        ds.references_for("C")


def test_default_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert datasets.default_cache_dir() == tmp_path / "xdg" / "bleu_lesson" / "wmt22"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert datasets.default_cache_dir() == tmp_path / "home" / ".cache" / "bleu_lesson" / "wmt22"


def test_split_lines_keeps_empty_segments():
    assert datasets._split_lines("a\n\nb\n") == ("a", "", "b")
    assert datasets._split_lines("a\nb") == ("a", "b")  # no final newline: nothing lost
    assert datasets._split_lines("a\tb\n") == ("a\tb",)  # only "\n" separates segments
    assert datasets._split_lines("") == ()


def test_shipped_manifest():
    manifest = datasets._manifest()
    assert manifest["repository"] == "wmt-conference/wmt22-news-systems"
    assert manifest["commit"] == "20240a2e96a50e823ea8cdf37fd8af52547146e3"
    assert {p: m["segments"] for p, m in manifest["pairs"].items()} == {"zh-en": 1875,
                                                                        "en-zh": 2037}
    assert len(manifest["pairs"]["zh-en"]["systems"]) == 12
    assert len(manifest["pairs"]["en-zh"]["systems"]) == 13
    for pair in datasets.WMT22_PAIRS:
        for name in datasets._pair_files(manifest, pair).values():
            entry = manifest["files"][name]
            assert len(entry["sha256"]) == 64 and entry["lines"] == manifest["pairs"][pair][
                "segments"]
            kind = name.split(".")[2]
            folder = {"src": "sources", "ref": "references", "hyp": "system-outputs"}[kind]
            assert entry["upstream_path"] == f"txt/{folder}/{name}"


@pytest.mark.wmt22
def test_manifest_is_the_folders(wmt22_dir):
    assert build_manifest(wmt22_dir) == datasets._manifest()


@pytest.mark.wmt22
def test_wmt22_both_pairs(wmt22_dir, tmp_path):
    zh_en = load_wmt22("zh-en", wmt22_dir, cache_dir=tmp_path, download=False)
    en_zh = load_wmt22("en-zh", wmt22_dir, cache_dir=tmp_path, download=False)
    assert (len(zh_en), len(en_zh)) == (1875, 2037)
    assert (zh_en.tokenizer, en_zh.tokenizer) == ("13a", "zh")
    for ds in (zh_en, en_zh):
        on_disk = sorted(p.name.split(".")[3] for p in wmt22_dir.glob(f"*.{ds.pair}.hyp.*"))
        assert list(ds.systems) == on_disk
        assert len(ds.references_for("both")) == len(ds)
        assert all(len(refs) == 2 for refs in ds.references_for("both"))
    assert list(zh_en.systems) == [
        "AISP-SJTU", "DLUT", "HuaweiTSC", "JDExploreAcademy", "Lan-Bridge", "LanguageX",
        "NiuTrans", "Online-A", "Online-B", "Online-G", "Online-W", "Online-Y"]
    assert list(en_zh.systems) == [
        "AISP-SJTU", "DLUT", "GTCOM", "HuaweiTSC", "JDExploreAcademy", "Lan-Bridge",
        "LanguageX", "Manifold", "Online-A", "Online-B", "Online-G", "Online-W", "Online-Y"]
    # quirks of the published files, kept as they are
    assert zh_en.systems["Online-W"][1478] == ""  # an empty output is still a segment
    assert zh_en.references["B"][1363] == "--\tYour requirements and our services"
    assert "WMT22(pair='zh-en', segments=1875" in repr(zh_en)


def test_data_command_names_the_datasets(capsys):
    from bleu_lesson.__main__ import main

    assert main(["data", "wmt23"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert "invalid choice: 'wmt23'" in err and "'wmt22-human'" in err and "'all'" in err
