"""The course's data: the running examples, and the WMT22 zh↔en test set.

The running examples are small constants a chapter can print and a learner can check by
hand: the seed's cat/mat sentences and Papineni et al. (2002)'s examples, each also an
``Example`` in ``EXAMPLES``.

>>> ex = EXAMPLES["papineni_the"]
>>> ex.candidate, len(ex.references)
('the the the the the the the', 2)

``load_wmt22(pair)`` returns the WMT22 general test set (zh-en or en-zh): the source, two
independent references "A" and "B", and every participating system's output. The files
are looked for, in this order, in ``data_dir``, in the folder named by the environment
variable ``BLEU_LESSON_WMT22_DIR`` and in the user cache; files found nowhere are
downloaded into the cache from the organisers' repository at a pinned commit. Every file
is checked against the SHA-256 sums in ``wmt22_manifest.json``, so a score computed here
is a score on exactly the published data.

``bleu-lesson data`` (``make data``) downloads them ahead of time; ``fetch_dataset`` and
``locate`` do the same for any dataset of the registry ``DATASETS`` (the test set "wmt22"
and the zh-en human judgments "wmt22-human"). Loading needs only the standard library;
downloading uses pooch, imported only when a file must be fetched.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

__all__ = [
    "DatasetNotFoundError",
    "EXAMPLES",
    "Example",
    "PAPINENI_GUIDE_1",
    "PAPINENI_GUIDE_2",
    "PAPINENI_GUIDE_REFERENCES",
    "PAPINENI_THE",
    "PAPINENI_THE_REFERENCES",
    "SEED_CANDIDATE",
    "SEED_REFERENCE",
    "SEED_REFERENCES",
    "WMT22",
    "Corpus",
    "TOY_CORPUS",
    "WMT22_ENV_VAR",
    "data_missing",
    "WMT22_PAIRS",
    "DATASETS",
    "RemoteDataset",
    "RemoteFile",
    "build_manifest",
    "dataset",
    "default_cache_dir",
    "fetch_dataset",
    "load_wmt22",
    "locate",
    "get_data_hint",
    "missing_files",
    "data_root",
    "looked_in",
]

# --- the running examples ---------------------------------------------------------------

#: The seed notebook's candidate, its one reference, and its three references.
SEED_CANDIDATE = "The cat is on the mat"
SEED_REFERENCE = ["The cat is sitting on the mat"]
SEED_REFERENCES = ["The cat is sitting on the mat", "A cat is on the mat",
                   "The cat lies on the mat"]

#: Papineni et al. (2002), §2.1: modified unigram precision 2/7 (lowercased).
PAPINENI_THE = "the the the the the the the"
PAPINENI_THE_REFERENCES = ["The cat is on the mat.", "There is a cat on the mat."]

#: Papineni et al. (2002), §2.1, example 1, as tokenized in NLTK's ``bleu_score``
#: docstrings (no final period).
PAPINENI_GUIDE_1 = ("It is a guide to action which ensures that the military always obeys "
                    "the commands of the party")
PAPINENI_GUIDE_2 = ("It is to insure the troops forever hearing the activity guidebook "
                    "that party direct")
PAPINENI_GUIDE_REFERENCES = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under "
    "the command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
]


@dataclass(frozen=True)
class Example:
    """One running example: a candidate, its references, and where it comes from.

    ``source`` is the citation of the example (not a source-language sentence).

    >>> ex = EXAMPLES["seed_multi"]
    >>> ex.references[1]
    'A cat is on the mat'
    """

    candidate: str
    references: tuple[str, ...]
    source: str

    def __post_init__(self) -> None:
        if not isinstance(self.candidate, str):
            raise TypeError(f"candidate must be a str, got {type(self.candidate).__name__}")
        if isinstance(self.references, str):
            raise TypeError("references must be a sequence of str, not a single str")
        refs = tuple(self.references)
        if not refs or not all(isinstance(r, str) for r in refs):
            raise ValueError("references must be a non-empty sequence of str")
        object.__setattr__(self, "references", refs)


_PAPINENI = "Papineni et al. (2002), BLEU: a method for automatic evaluation of MT, §2.1"
_NLTK_TOKENS = "; tokens as in NLTK's nltk.translate.bleu_score docstrings (no final period)"

#: The running examples by name.
EXAMPLES: dict[str, Example] = {
    "seed_single": Example(SEED_CANDIDATE, tuple(SEED_REFERENCE),
                           "the seed notebook's example, one reference"),
    "seed_multi": Example(SEED_CANDIDATE, tuple(SEED_REFERENCES),
                          "the seed notebook's example, three references"),
    "papineni_the": Example(PAPINENI_THE, tuple(PAPINENI_THE_REFERENCES),
                            _PAPINENI + ", example 3 (modified unigram precision 2/7)"),
    "papineni_guide_1": Example(PAPINENI_GUIDE_1, tuple(PAPINENI_GUIDE_REFERENCES),
                                _PAPINENI + ", example 1, candidate 1" + _NLTK_TOKENS),
    "papineni_guide_2": Example(PAPINENI_GUIDE_2, tuple(PAPINENI_GUIDE_REFERENCES),
                                _PAPINENI + ", example 1, candidate 2" + _NLTK_TOKENS),
}

# --- WMT22 ------------------------------------------------------------------------------

#: The language pairs ``load_wmt22`` knows.
WMT22_PAIRS: tuple[str, ...] = ("zh-en", "en-zh")
#: The environment variable naming a local folder with the WMT22 files.
WMT22_ENV_VAR = "BLEU_LESSON_WMT22_DIR"
#: The tokenizer WMT22 used for BLEU on each pair's target language.
_TOKENIZERS = {"zh-en": "13a", "en-zh": "zh"}
_REFERENCE_CHOICES = ("both", "A", "B")
_MANIFEST = "wmt22_manifest.json"
_PREFIX = "generaltest2022"


class DatasetNotFoundError(FileNotFoundError):
    """The data is neither on this machine nor downloadable (download off, or offline)."""


@dataclass(frozen=True)
class Corpus:
    """A test set: line i of every field is segment i.

    ``references`` maps names ("A", "B") to complete references; ``systems`` maps each
    system's name to its output. ``pair`` is the language pair, e.g. ``"zh-en"``.
    """

    pair: str
    source: tuple[str, ...]
    references: dict[str, tuple[str, ...]]
    systems: dict[str, tuple[str, ...]]

    def __len__(self) -> int:
        return len(self.source)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(pair={self.pair!r}, segments={len(self)}, "
                f"references={list(self.references)}, systems={list(self.systems)})")

    @property
    def tokenizer(self) -> str:
        """The tokenizer WMT22 used for BLEU: ``"zh"`` for a Chinese target, else ``"13a"``."""
        return _TOKENIZERS.get(self.pair, "13a")

    def _chosen(self, which: str) -> list[tuple[str, ...]]:
        choices = ("both", *self.references)
        if which not in choices:
            raise ValueError(
                f"which must be one of {', '.join(map(repr, choices))}, got {which!r}"
            )
        names = tuple(self.references) if which == "both" else (which,)
        return [self.references[name] for name in names]

    def references_for(self, which: str = "both") -> list[list[str]]:
        """Per-segment references (``out[i][k]``), the layout ``corpus_bleu`` takes.

        ``which`` is a reference's name ("A", "B") or ``"both"`` (all of them).
        """
        return [list(segment) for segment in zip(*self._chosen(which), strict=True)]

    def reference_streams(self, which: str = "both") -> list[list[str]]:
        """The same references in sacrebleu's layout: one stream per reference (``refs[k][i]``)."""
        return [list(stream) for stream in self._chosen(which)]


class WMT22(Corpus):
    """One pair of the WMT22 general test set (``load_wmt22``); systems sorted by name."""


#: Chapter 07's small corpus: ten zh→en segments, two references, a good and a weak
#: system (the weak one is terse throughout, and its last output translates the wrong sentence).
TOY_CORPUS = Corpus(
    pair="zh-en",
    source=(
        "猫坐在垫子上。", "今天天气很好。", "我们明天去北京。", "他每天早上喝一杯咖啡。",
        "这本书非常有意思。", "请把门关上。", "会议推迟到下周一。", "谢谢！",
        "机器翻译的质量在过去十年里提高了很多。", "她在医院工作了二十年。",
    ),
    references={
        "A": (
            "The cat is sitting on the mat.", "The weather is very nice today.",
            "We are going to Beijing tomorrow.", "He drinks a cup of coffee every morning.",
            "This book is very interesting.", "Please close the door.",
            "The meeting has been postponed to next Monday.", "Thank you!",
            "The quality of machine translation has improved a lot over the past ten years.",
            "She has worked at the hospital for twenty years.",
        ),
        "B": (
            "A cat sits on the mat.", "It is a lovely day today.",
            "Tomorrow we will go to Beijing.", "Every morning he has a cup of coffee.",
            "This book is really interesting.", "Please shut the door.",
            "The meeting was put off until next Monday.", "Thanks!",
            "Machine translation quality has improved greatly in the last decade.",
            "She worked in a hospital for twenty years.",
        ),
    },
    systems={
        "good": (
            "The cat sits on the mat.", "The weather is very good today.",
            "We will go to Beijing tomorrow.", "He drinks a cup of coffee every morning.",
            "This book is very interesting.", "Please close the door.",
            "The meeting is postponed to next Monday.", "Thank you!",
            "The quality of machine translation has improved a lot in the past ten years.",
            "She has worked in the hospital for twenty years.",
        ),
        "weak": (
            "Cat on mat.", "Today weather good.", "We go Beijing.", "He drinks coffee.",
            "The book is interesting very.", "Please the door close.",
            "Meeting delay Monday.", "Thanks you.",
            "Machine translation quality improved much past ten years.",
            "The weather is very nice today.",
        ),
    },
)


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/bleu_lesson/wmt22``, or ``~/.cache/bleu_lesson/wmt22``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "bleu_lesson" / "wmt22"


@lru_cache(maxsize=1)
def _load_manifest() -> str:
    return resources.files(__package__).joinpath(_MANIFEST).read_text(encoding="utf-8")


def _manifest() -> dict:
    """The manifest shipped with the package (a fresh copy: callers may not share it)."""
    return json.loads(_load_manifest())


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _split_lines(text: str) -> tuple[str, ...]:
    """Segments of a file: split on "\\n" only, keeping empty lines, minus the final newline.

    >>> _split_lines("a\\n\\nb\\n")
    ('a', '', 'b')
    """
    if text == "":
        return ()
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return tuple(lines)


# --- the download registry --------------------------------------------------------------
#
# Every downloadable file is pinned: a repository, a full commit, the file's path in it and
# its SHA-256. Files live in one folder tree, the same on every machine: a dataset's
# ``folder`` inside the WMT22 folder (``data_dir``, ``$BLEU_LESSON_WMT22_DIR`` or the
# cache). Downloads go through pooch (imported only when a file must be fetched), which
# checks the hash, keeps nothing that fails it, and shows a tqdm progress bar per file.

#: The upstream repository and full commit of every WMT22 file.
WMT22_REPOSITORY = "wmt-conference/wmt22-news-systems"
WMT22_COMMIT = "20240a2e96a50e823ea8cdf37fd8af52547146e3"
#: Where the files are downloaded from: ``{base}/{repository}/{commit}/{path}``. Tests point
#: it at a server on 127.0.0.1 through this environment variable.
DATA_URL_ENV_VAR = "BLEU_LESSON_DATA_URL"
_DEFAULT_BASE_URL = "https://raw.githubusercontent.com"


@dataclass(frozen=True)
class RemoteFile:
    """One pinned file: its path in the upstream repository, its SHA-256 and size."""

    upstream_path: str
    sha256: str
    size: int | None = None


@dataclass(frozen=True)
class RemoteDataset:
    """A set of pinned files from one repository at one commit (an entry of ``DATASETS``).

    ``folder`` is where the files sit below the WMT22 folder ("" for the folder itself).
    """

    name: str
    description: str
    repository: str
    commit: str
    folder: str
    files: Mapping[str, RemoteFile]

    @property
    def size(self) -> int:
        """Total bytes of the files (0 for a file whose size is not recorded)."""
        return sum(f.size or 0 for f in self.files.values())

    def url(self, filename: str, base_url: str | None = None) -> str:
        base = (base_url or os.environ.get(DATA_URL_ENV_VAR) or _DEFAULT_BASE_URL).rstrip("/")
        return f"{base}/{self.repository}/{self.commit}/{self.files[filename].upstream_path}"


def _wmt22_test_set() -> RemoteDataset:
    manifest = _manifest()
    return RemoteDataset(
        "wmt22", "WMT22 general test set zh-en and en-zh (sources, references A and B, "
        "every system's output)", manifest["repository"], WMT22_COMMIT, "",
        {name: RemoteFile(entry["upstream_path"], entry["sha256"], entry.get("bytes"))
         for name, entry in manifest["files"].items()})


def _wmt22_human() -> RemoteDataset:
    folder = "humaneval/DA/newstest2022-toen/"
    files = {  # SHA-256 and sizes as in the data folder's README
        "ad-DA-diff-wilcoxon-rs-zhen.csv":
            ("9f7f57eb4885e1b78d3d52f543b088e4df38d0777a44ad99bdcbcb6567fe1ee4", 1288),
        "ad-seg-scores-zh-en.csv":
            ("7d88f006b7b1734dea4fb9a63b6d21764b27b5704f75ac9818da96aa0ff1cd03", 851365),
        "ad-sys-ranking-zh-en-z-names.csv":
            ("3ba1f334ca5b10bcfa473b567d5c76baeea131e5d7b4a24bc99bba3030c59ff8", 562),
        "ad-sys-scores-zh-en.csv":
            ("b4ab06dc86e5158303b5ca4a9e886a4b61f39551f1c085f620335d9978fff1fb", 796),
        "adwilcox-zhen.csv":
            ("8d37dbf95c6f7447e065503cee38c35a1139c66cd06f0547ebe4e0913f9600f4", 1867),
    }
    return RemoteDataset(
        "wmt22-human", "WMT22 zh-en human judgments (direct assessment, system and segment "
        "scores, Wilcoxon tables)", WMT22_REPOSITORY, WMT22_COMMIT, "humaneval",
        {name: RemoteFile(folder + name, sha, size) for name, (sha, size) in files.items()})


#: The downloadable datasets: name -> a function returning its ``RemoteDataset``. Adding a
#: dataset is one entry here.
DATASETS = {
    "wmt22": _wmt22_test_set,
    "wmt22-human": _wmt22_human,
}


def dataset(name: str) -> RemoteDataset:
    """The registry entry of a downloadable dataset ("wmt22", "wmt22-human").

    >>> dataset("wmt22-human").files["adwilcox-zhen.csv"].upstream_path
    'humaneval/DA/newstest2022-toen/adwilcox-zhen.csv'
    """
    if name not in DATASETS:
        raise ValueError(
            f"dataset must be one of {', '.join(map(repr, DATASETS))}, got {name!r}")
    return DATASETS[name]()


def _folders(spec: RemoteDataset, data_dir, cache_dir) -> list[tuple[Path, str]]:
    """The folders to look in, in order, each with why it is looked in."""
    roots: list[tuple[Path, str]] = []
    if data_dir is not None:
        roots.append((Path(data_dir), "data_dir argument"))
    if os.environ.get(WMT22_ENV_VAR):
        roots.append((Path(os.environ[WMT22_ENV_VAR]), WMT22_ENV_VAR))
    roots.append((Path(cache_dir) if cache_dir is not None else default_cache_dir(), "cache"))
    return [((root / spec.folder) if spec.folder else root, why) for root, why in roots]


_LOCAL_HINT = ("Replace it with the file of the pinned commit, or delete it: missing files "
               "are downloaded again.")


def _check_sha256(name: str, data: bytes, expected: str, where: str, hint: str) -> None:
    actual = _sha256(data)
    if actual != expected:
        if b"\r\n" in data:
            hint = ("It has Windows line endings \\r\\n: was it converted by git's autocrlf "
                    "or an editor? " + hint)
        raise ValueError(
            f"WMT22 file {name} ({where}) is corrupted or a different version: "
            f"expected sha256 {expected}, got {actual}. {hint}"
        )


def _looked_in(folders: list[tuple[Path, str]], one_line: bool = False) -> str:
    """The folders looked in, each with why and whether it exists (a list, or one line)."""
    lines = []
    for folder, why in folders:
        note = "" if folder.is_dir() else ", does not exist"
        lines.append(f"{folder} ({why}{note})")
    if one_line:
        return "looked in " + ", ".join(lines)
    return "Looked in:\n" + "\n".join(f"  - {line}" for line in lines)


def looked_in(name: str, data_dir: str | os.PathLike | None = None, *,
              cache_dir: str | os.PathLike | None = None) -> str:
    """One line naming the folders dataset ``name`` is looked for in, in order, each with
    why (``data_dir argument``, ``BLEU_LESSON_WMT22_DIR``, ``cache``) and whether it exists."""
    return _looked_in(_folders(dataset(name), data_dir, cache_dir), one_line=True)


def _name_list(names: list[str], limit: int = 4) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _how_to_get(spec: RemoteDataset, cache: Path) -> str:
    return (
        f"To get the data, either\n"
        f"  - run `bleu-lesson data {spec.name}` (or `make data`) once while online: the "
        f"files are downloaded into {cache}, or\n"
        f"  - set {WMT22_ENV_VAR} (or pass data_dir=) to a folder with the files of "
        f"{spec.repository} at commit {spec.commit}."
    )


def _reason(exc: BaseException) -> str:
    """The gist of a network error: requests nests the OS's reason deep in its message.

    >>> _reason(OSError("... NewConnectionError(... [Errno 111] Connection refused'))"))
    'OSError: [Errno 111] Connection refused'
    """
    text = str(exc)
    found = re.search(r"\[Errno -?\d+\][^'\")]*", text)
    return f"{type(exc).__name__}: {found.group(0).strip() if found else text[:200]}"


def _count_missing(left: Sequence[str], spec: RemoteDataset) -> str:
    """``"1 of the 31 files of wmt22 is missing"``: counted over every folder looked in.

    >>> _count_missing(["a"], dataset("wmt22-human"))
    '1 of the 5 files of wmt22-human is missing'
    """
    verb = "is" if len(left) == 1 else "are"
    return f"{len(left)} of the {len(spec.files)} files of {spec.name} {verb} missing"


def _where_to_copy(spec: RemoteDataset, cache: Path, left: Sequence[str] = (),
                   folders: Sequence[tuple[Path, str]] = ()) -> str:
    """Where a user without network puts the files of ``spec`` by hand (one sentence):
    beside the others when a folder of the user's holds some of them."""
    for folder, why in folders:
        if folder != cache and any((folder / n).is_file() for n in spec.files):
            others = len(spec.files) - len(left)
            return (f"copy {'it' if len(left) == 1 else 'them'} into {folder} ({why}), "
                    f"where the other {others} {'is' if others == 1 else 'are'}.")
    if spec.folder:
        return (f"copy the files into {cache} (the {spec.folder}/ subfolder of the WMT22 "
                f"folder), or into the {spec.folder}/ subfolder of any folder and set "
                f"{WMT22_ENV_VAR} to that folder.")
    below = [d for d in map(dataset, DATASETS) if d.folder]
    return (f"copy the files into {cache} (or into any folder and set {WMT22_ENV_VAR} to "
            f"it)" + "".join(f"; the files of {d.name} go in its {d.folder}/ subfolder"
                             for d in below) + ".")


def get_data_hint() -> str:
    """How to get the WMT22 data, in one short line: what every data skip of the tests,
    ``make notebooks`` and the benchmarks tell the reader to do (sizes from the registry).

    >>> print(get_data_hint())  # doctest: +NORMALIZE_WHITESPACE
    run `make data` (or `bleu-lesson data`, ≈8 MB, once) or set BLEU_LESSON_WMT22_DIR
    to the WMT22 folder
    """
    size = sum(dataset(name).size for name in DATASETS) / 1e6
    return (f"run `make data` (or `bleu-lesson data`, ≈{size:.0f} MB, once) or set "
            f"{WMT22_ENV_VAR} to the WMT22 folder")


def missing_files(name: str, data_dir: str | os.PathLike | None = None, *,
                  cache_dir: str | os.PathLike | None = None) -> list[str]:
    """The files of dataset ``name`` found in none of the folders looked in (``data_dir``,
    ``$BLEU_LESSON_WMT22_DIR``, the cache), in the registry's order: what ``load_wmt22``
    would have to download."""
    spec = dataset(name)
    return _absent(spec, [f for f, _ in _folders(spec, data_dir, cache_dir)])


def data_missing(names: Sequence[str] | None = None,
                 data_dir: str | os.PathLike | None = None, *,
                 cache_dir: str | os.PathLike | None = None) -> str | None:
    """What is wrong with the WMT22 data here, in a few words, or ``None`` when it is usable.

    The one answer to "is the WMT22 data here?": every file of each dataset of ``names``
    (default: all of ``DATASETS``) is in one folder of the lookup order (``data_dir``,
    ``$BLEU_LESSON_WMT22_DIR``, the cache) and has its SHA-256; nothing is downloaded. The
    tests' skips and ``make notebooks`` ask it, and add ``get_data_hint()``.

    >>> env = os.environ.pop(WMT22_ENV_VAR, None)     # look in an empty cache only
    >>> data_missing(["wmt22"], cache_dir="/nonexistent")  # doctest: +ELLIPSIS
    'wmt22: 31 of 31 files missing, e.g. ...'
    >>> os.environ.update({WMT22_ENV_VAR: env} if env else {})
    """
    value = os.environ.get(WMT22_ENV_VAR)
    if value and not Path(value).is_dir():
        return f"{WMT22_ENV_VAR}={value} is not a folder"
    for name in tuple(DATASETS) if names is None else names:
        spec = dataset(name)
        left = missing_files(name, data_dir, cache_dir=cache_dir)
        if left:
            return f"{name}: {len(left)} of {len(spec.files)} files missing, e.g. {left[0]}"
        try:
            fetch_dataset(name, data_dir, cache_dir=cache_dir, download=False)
        except DatasetNotFoundError:
            return f"{name}: no one folder holds all {len(spec.files)} files"
        except ValueError as exc:  # "WMT22 file NAME (PATH) is corrupted or ...": its name
            return f"{str(exc).split(' (', 1)[0]} is corrupted"
    return None


def _absent(spec: RemoteDataset, places: Sequence[Path]) -> list[str]:
    """The files of ``spec`` in none of ``places``, in the registry's order."""
    return [n for n in spec.files if not any((f / n).is_file() for f in places)]


def _holds(spec: RemoteDataset, root: Path) -> bool:
    """Whether WMT22 folder ``root`` has every file of ``spec`` (in its subfolder)."""
    folder = root / spec.folder if spec.folder else root
    return all((folder / n).is_file() for n in spec.files)


def data_root(data_dir: str | os.PathLike | None = None, *,
              cache_dir: str | os.PathLike | None = None,
              complete: bool = False) -> Path | None:
    """The one WMT22 folder that holds the data, found in the lookup order of ``load_wmt22``
    (``data_dir``, ``$BLEU_LESSON_WMT22_DIR``, the cache): the first that has every file of
    every dataset of ``DATASETS`` (each in its subfolder), else (unless ``complete``) the
    first that has the whole test set; ``None`` when none has it. ``bleu-lesson check``
    gives this folder, read-only, to the sandboxed kernels as ``$BLEU_LESSON_WMT22_DIR``.
    """
    roots = [folder for folder, _ in _folders(dataset("wmt22"), data_dir, cache_dir)]
    specs = [dataset(name) for name in DATASETS]
    for root in roots:
        if all(_holds(spec, root) for spec in specs):
            return root
    if complete:
        return None
    return next((root for root in roots if _holds(dataset("wmt22"), root)), None)


def _new_folders(folder: Path) -> list[Path]:
    """``folder`` and those of its parents that do not exist yet, deepest first."""
    return [p for p in (folder, *folder.parents) if not p.exists()]


def _remove_if_empty(folders: list[Path]) -> None:
    """Remove the folders a failed download created, deepest first, while they are empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return


def _download(spec: RemoteDataset, names: list[str], cache: Path,
              progressbar: bool, folders: Sequence[tuple[Path, str]] = ()) -> None:
    """Fetch ``names`` into ``cache`` with pooch; each is hash-checked before it is kept.

    If a download fails, the folders this call created are removed again when they are
    still empty, and the error names the files still missing, found in none of ``cache``
    and the other ``folders`` looked in, and where to put them."""
    from urllib.parse import urlsplit

    try:
        import pooch
        import requests
    except ImportError as exc:  # pragma: no cover - pooch is a dependency
        raise DatasetNotFoundError(
            f"downloading needs pooch ({exc}): python -m pip install pooch") from exc
    pooch.get_logger().setLevel("WARNING")  # the progress bar says enough
    fetcher = pooch.create(
        path=cache, base_url="", retry_if_failed=0,
        registry={n: f"sha256:{spec.files[n].sha256}" for n in names},
        urls={n: spec.url(n) for n in names},
    )
    downloader = pooch.HTTPDownloader(progressbar=progressbar, timeout=60)
    created = _new_folders(cache)
    try:
        for name in names:
            url = spec.url(name)
            try:
                fetcher.fetch(name, downloader=downloader)
            except ValueError as exc:  # pooch: the hash does not match; nothing was kept
                raise ValueError(
                    f"WMT22 file {name} (downloaded from {url}) is corrupted or a different "
                    f"version: {exc} Nothing was saved (a proxy or captive portal may have "
                    f"answered instead).") from exc
            except (requests.RequestException, OSError) as exc:
                left = _absent(spec, [cache, *(f for f, _ in folders if f != cache)])
                parts = urlsplit(url)
                raise DatasetNotFoundError(
                    f"cannot reach {parts.scheme}://{parts.netloc} for {name} "
                    f"({_reason(exc)}). Offline? {_count_missing(left, spec)} "
                    f"({_name_list(left, 5)}): "
                    + _where_to_copy(spec, cache, left, folders)) from exc
    except BaseException:
        _remove_if_empty(created)
        raise


def locate(name: str, filename: str, data_dir: str | os.PathLike | None = None, *,
           cache_dir: str | os.PathLike | None = None, download: bool = True,
           progressbar: bool = False) -> Path:
    """The path of one file of dataset ``name``: the first of ``data_dir``,
    ``$BLEU_LESSON_WMT22_DIR`` and the cache that has it, else downloaded into the cache.

    A local file is returned as found (``load_wmt22`` checks its hash); a file found
    nowhere with ``download=False`` raises ``DatasetNotFoundError`` saying where it looked.
    """
    spec = dataset(name)
    if filename not in spec.files:
        raise ValueError(f"filename {filename!r} is not a file of dataset {name!r}")
    return _locate_all(spec, [filename], data_dir, cache_dir, download, progressbar)[filename]


def _locate_all(spec: RemoteDataset, names: list[str], data_dir, cache_dir, download: bool,
                progressbar: bool) -> dict[str, Path]:
    folders = _folders(spec, data_dir, cache_dir)
    cache = folders[-1][0]
    found: dict[str, Path] = {}
    for filename in names:
        for folder, _ in folders:
            if (folder / filename).is_file():
                found[filename] = folder / filename
                break
    missing = [n for n in names if n not in found]
    if missing and not download:
        raise DatasetNotFoundError(
            f"{spec.name} data not found: {len(missing)} of {len(names)} files are missing "
            f"({_name_list(missing)}), and download=False.\n"
            f"{_looked_in(folders)}\n{_how_to_get(spec, cache)}")
    if missing:
        try:
            _download(spec, missing, cache, progressbar, folders)
        except DatasetNotFoundError as exc:
            raise DatasetNotFoundError(
                f"{exc}\n{_looked_in(folders)}\n{_how_to_get(spec, cache)}") from exc.__cause__
        found.update({n: cache / n for n in missing})
    return {n: found[n] for n in names}


def fetch_dataset(name: str, data_dir: str | os.PathLike | None = None, *,
                  cache_dir: str | os.PathLike | None = None, download: bool = True,
                  progressbar: bool = False) -> Path:
    """The folder holding every file of dataset ``name``, verified by SHA-256.

    The first folder in the lookup order (``data_dir``, ``$BLEU_LESSON_WMT22_DIR``, the
    cache) that has all the files wins; otherwise the files missing from the cache are
    downloaded into it (``download=True``) and the cache folder is returned. Calling it
    again downloads nothing. A wrong file raises ``ValueError`` naming it.
    """
    spec = dataset(name)
    folders = _folders(spec, data_dir, cache_dir)
    for folder, _ in folders[:-1]:  # a folder of the user's: checked, never changed
        if all((folder / n).is_file() for n in spec.files):
            for n, entry in spec.files.items():
                _check_sha256(n, (folder / n).read_bytes(), entry.sha256, str(folder / n),
                              _LOCAL_HINT)
            return folder
    cache = folders[-1][0]
    missing = [n for n in spec.files if not (cache / n).is_file()]
    if missing and not download:
        raise DatasetNotFoundError(
            f"{spec.name} data not found: {len(missing)} of {len(spec.files)} files are "
            f"missing ({_name_list(missing)}), and download=False.\n"
            f"{_looked_in(folders)}\n{_how_to_get(spec, cache)}")
    wrong = [n for n in spec.files if n not in missing
             and _sha256((cache / n).read_bytes()) != spec.files[n].sha256]
    if wrong and not download:
        n = wrong[0]
        _check_sha256(n, (cache / n).read_bytes(), spec.files[n].sha256, str(cache / n),
                      _LOCAL_HINT)
    if missing or wrong:  # pooch fetches each again and keeps it only if its hash is right
        try:
            _download(spec, [n for n in spec.files if n in missing or n in wrong], cache,
                      progressbar, folders)
        except DatasetNotFoundError as exc:
            raise DatasetNotFoundError(
                f"{exc}\n{_looked_in(folders)}\n{_how_to_get(spec, cache)}") from exc.__cause__
    return cache


def load_wmt22(pair: str, data_dir: str | os.PathLike | None = None, *,
               cache_dir: str | os.PathLike | None = None, download: bool = True,
               verify: bool = True) -> WMT22:
    """Load one pair of the WMT22 general test set ("zh-en" or "en-zh").

    Each file is taken from the first of these folders that has it: ``data_dir``, the
    folder in ``$BLEU_LESSON_WMT22_DIR``, the cache (``cache_dir``, by default
    ``default_cache_dir()``). Files found nowhere are downloaded into the cache when
    ``download`` is true (``bleu-lesson data`` does it ahead of time), else
    ``DatasetNotFoundError`` says where it looked and how to get them. ``verify=False``
    skips the SHA-256 check of local files (downloads are always checked); a checksum
    mismatch raises ``ValueError`` naming the file.

    Scoring a system as WMT22 did (sacrebleu 2.0 defaults, both references)::

        data = load_wmt22("zh-en")
        corpus_bleu(list(data.systems["Online-B"]), data.references_for("both"),
                    tokenizer=data.tokenizer)
    """
    if pair not in WMT22_PAIRS:
        raise ValueError(
            f"pair must be one of {', '.join(map(repr, WMT22_PAIRS))}, got {pair!r}"
        )
    manifest = _manifest()
    spec = _wmt22_test_set()
    roles = _pair_files(manifest, pair)
    paths = _locate_all(spec, list(roles.values()), data_dir, cache_dir, download, False)

    segments = manifest["pairs"][pair]["segments"]
    texts: dict[str, tuple[str, ...]] = {}
    for role, name in roles.items():
        data = paths[name].read_bytes()
        if verify:
            _check_sha256(name, data, manifest["files"][name]["sha256"], str(paths[name]),
                          _LOCAL_HINT)
        lines = _split_lines(data.decode("utf-8"))
        if len(lines) != segments:
            raise ValueError(
                f"WMT22 file {name} has {len(lines)} lines, but every {pair} file must have "
                f"{segments} (one per segment)"
            )
        texts[role] = lines

    return WMT22(
        pair=pair,
        source=texts["source"],
        references={k[4:]: v for k, v in texts.items() if k.startswith("ref.")},
        systems={k[4:]: v for k, v in texts.items() if k.startswith("hyp.")},
    )


def _pair_files(manifest: dict, pair: str) -> dict[str, str]:
    """Role ("source", "ref.A", "hyp.SYSTEM") -> file name, in reading order."""
    info = manifest["pairs"][pair]
    files = {"source": info["source"]}
    files.update({f"ref.{k}": name for k, name in info["references"].items()})
    files.update({f"hyp.{k}": name for k, name in info["systems"].items()})
    return files

# --- the manifest -----------------------------------------------------------------------

def build_manifest(folder: str | os.PathLike, *, repository: str =
                   "wmt-conference/wmt22-news-systems",
                   commit: str = "20240a2e96a50e823ea8cdf37fd8af52547146e3",
                   pairs: Mapping[str, str] | None = None) -> dict:
    """The manifest of a folder of WMT22 text files: sha256 and line count of each file.

    ``pairs`` maps each pair to its target language's file suffix; the systems of a pair
    are the ``generaltest2022.PAIR.hyp.*`` files present. Regenerate the shipped file with
    ``python -m bleu_lesson.data.datasets FOLDER > bleu_lesson/data/wmt22_manifest.json``.
    """
    folder = Path(folder)
    pairs = dict(pairs) if pairs is not None else {"zh-en": "en", "en-zh": "zh"}
    manifest: dict = {
        "description": "WMT22 general test set (generaltest2022), text files of txt/",
        "repository": repository,
        "commit": commit,
        "pairs": {},
        "files": {},
    }

    def add(name: str, subdir: str) -> str:
        data = (folder / name).read_bytes()
        manifest["files"][name] = {
            "sha256": _sha256(data),
            "lines": len(_split_lines(data.decode("utf-8"))),
            "bytes": len(data),
            "upstream_path": f"txt/{subdir}/{name}",
        }
        return name

    for pair, tgt in pairs.items():
        src = pair.split("-")[0]
        hyp = f"{_PREFIX}.{pair}.hyp."
        systems = sorted(p.name[len(hyp):-len(tgt) - 1]
                         for p in folder.glob(f"{hyp}*.{tgt}"))
        manifest["pairs"][pair] = {
            "segments": None,  # set below, once the files agree
            "source": add(f"{_PREFIX}.{pair}.src.{src}", "sources"),
            "references": {k: add(f"{_PREFIX}.{pair}.ref.{k}.{tgt}", "references")
                           for k in ("A", "B")},
            "systems": {s: add(f"{hyp}{s}.{tgt}", "system-outputs") for s in systems},
        }
        counts = {manifest["files"][n]["lines"] for n in _pair_files(manifest, pair).values()}
        if len(counts) != 1:
            raise ValueError(f"the {pair} files do not have the same number of lines: {counts}")
        manifest["pairs"][pair]["segments"] = counts.pop()
    return manifest


if __name__ == "__main__":  # pragma: no cover
    import sys

    if len(sys.argv) != 2:
        sys.exit("usage: python -m bleu_lesson.data.datasets FOLDER "
                 "> bleu_lesson/data/wmt22_manifest.json")
    json.dump(build_manifest(sys.argv[1]), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


# === WMT22 human judgments (zh-en) ======================================================
# A separate section on purpose: every file below is read through ``_human_file`` alone, so
# the downloader behind it can be swapped (for one shared with ``load_wmt22``) by replacing
# that one function's body.

#: The organisers' repository, commit and folder of the zh-en human evaluation (DA).
WMT22_HUMAN_REPOSITORY = "wmt-conference/wmt22-news-systems"
WMT22_HUMAN_COMMIT = "20240a2e96a50e823ea8cdf37fd8af52547146e3"
WMT22_HUMAN_FOLDER = "humaneval/DA/newstest2022-toen"
#: The subfolder of ``BLEU_LESSON_WMT22_DIR`` (and of the cache) holding the human files.
WMT22_HUMAN_SUBDIR = "humaneval"
#: The pairs with human judgments here.
WMT22_HUMAN_PAIRS: tuple[str, ...] = ("zh-en",)
#: role -> (file name, SHA-256) of the five files of the zh-en human evaluation.
WMT22_HUMAN_FILES: dict[str, tuple[str, str]] = {
    "ranking": ("ad-sys-ranking-zh-en-z-names.csv",
                "3ba1f334ca5b10bcfa473b567d5c76baeea131e5d7b4a24bc99bba3030c59ff8"),
    "scores": ("ad-sys-scores-zh-en.csv",
               "b4ab06dc86e5158303b5ca4a9e886a4b61f39551f1c085f620335d9978fff1fb"),
    "segments": ("ad-seg-scores-zh-en.csv",
                 "7d88f006b7b1734dea4fb9a63b6d21764b27b5704f75ac9818da96aa0ff1cd03"),
    "differences": ("ad-DA-diff-wilcoxon-rs-zhen.csv",
                    "9f7f57eb4885e1b78d3d52f543b088e4df38d0777a44ad99bdcbcb6567fe1ee4"),
    "p_values": ("adwilcox-zhen.csv",
                 "8d37dbf95c6f7447e065503cee38c35a1139c66cd06f0547ebe4e0913f9600f4"),
}
#: A human "system" that is a reference translation, and the reference it is.
HUMAN_REFERENCE_SYSTEMS: dict[str, str] = {"HUMAN-B": "B"}


def _human_file(name: str, expected: str, *, data_dir: str | os.PathLike | None,
                cache_dir: str | os.PathLike | None, download: bool, verify: bool) -> bytes:
    """The bytes of one human-evaluation file: found locally, else downloaded into the cache.

    Looked for in ``data_dir`` (itself or its ``humaneval/`` subfolder), in
    ``$BLEU_LESSON_WMT22_DIR/humaneval/`` and in ``CACHE/humaneval/``; a download (only
    with ``download=True``) comes from the pinned commit and is checked before it is kept.
    """
    cache = (Path(cache_dir) if cache_dir is not None else default_cache_dir()) \
        / WMT22_HUMAN_SUBDIR
    folders: list[tuple[Path, str]] = []
    if data_dir is not None:
        folders += [(Path(data_dir), "data_dir argument"),
                    (Path(data_dir) / WMT22_HUMAN_SUBDIR, "data_dir argument")]
    if os.environ.get(WMT22_ENV_VAR):
        folders.append((Path(os.environ[WMT22_ENV_VAR]) / WMT22_HUMAN_SUBDIR, WMT22_ENV_VAR))
    folders.append((cache, "cache"))
    for folder, _ in folders:
        path = folder / name
        if path.is_file():
            data = path.read_bytes()
            if verify:
                _check_sha256(name, data, expected, str(path), _LOCAL_HINT)
            return data
    spec = dataset("wmt22-human")
    how = (f"To get it, run `bleu-lesson data wmt22-human` (or `make data`), set "
           f"{WMT22_ENV_VAR} (or pass data_dir=) to a folder whose {WMT22_HUMAN_SUBDIR}/ "
           f"subfolder has the files of {WMT22_HUMAN_FOLDER}/ of {WMT22_HUMAN_REPOSITORY} "
           f"(commit {WMT22_HUMAN_COMMIT}), or call load_wmt22_human(..., download=True) "
           f"once online: it is then kept in {cache}.")
    if not download:
        raise DatasetNotFoundError(
            f"WMT22 human-evaluation file {name} not found, and download=False.\n"
            f"{_looked_in(folders)}\n{how}")
    # the registry's download (pooch: pinned URL, SHA-256 checked, into the cache)
    path = _locate_all(spec, [name], None, cache_dir, True, False)[name]
    data = path.read_bytes()
    _check_sha256(name, data, expected, str(path), _LOCAL_HINT)
    return data


@dataclass(frozen=True)
class HumanScore:
    """One system's human DA score: mean raw score (0-100), mean z-score, and counts.

    ``system`` is the name in the test-set files (``HUMAN-B`` for reference B); ``id`` is
    the organisers' ``NAME.N``; ``z_published`` is the z-score as the published ranking
    prints it (3 decimals); ``n`` counts scored segments, ``n_judgments`` all judgments.
    """

    system: str
    id: str
    raw: float
    z: float
    z_published: float
    n: int
    n_judgments: int

    def __str__(self) -> str:
        return (f"{self.system}: z = {self.z:+.3f}, raw = {self.raw:.1f} "
                f"({self.n} segments, {self.n_judgments} judgments)")


@dataclass(frozen=True)
class HumanJudgments:
    """WMT22's human evaluation of one pair (``load_wmt22_human``).

    ``scores`` maps each system's test-set name to its ``HumanScore``, in the published
    ranking's order (best first). ``p_values[a, b]`` is the one-sided Wilcoxon rank-sum
    p-value for "a is better than b", ``stars[a, b]`` its ``*``/``**``/``***`` (p < 0.05,
    0.01, 0.001) and ``differences[a, b]`` the difference in mean z as the table prints it.
    The table writes every p-value not below 0.05 as the placeholder 0.12 (the diagonal
    too): read it as "not significant", not as a measured p.
    """

    pair: str
    scores: dict[str, HumanScore]
    p_values: dict[tuple[str, str], float]
    stars: dict[tuple[str, str], str]
    differences: dict[tuple[str, str], float]
    references: dict[str, str]  # human "systems" that are references -> reference name

    @property
    def systems(self) -> tuple[str, ...]:
        """Test-set names, best first (the published ranking)."""
        return tuple(self.scores)

    def z(self, published: bool = True) -> dict[str, float]:
        """System -> z-score: as published (3 decimals, the default) or at full precision."""
        return {name: (s.z_published if published else s.z) for name, s in self.scores.items()}

    def p_value(self, a: str, b: str) -> float:
        """The organisers' one-sided Wilcoxon p-value for "``a`` is better than ``b``"
        (1.0 for a system against itself)."""
        for name in (a, b):
            if name not in self.scores:
                raise ValueError(f"unknown system {name!r}; known: {', '.join(self.scores)}")
        return 1.0 if a == b else self.p_values[a, b]

    def better(self, a: str, b: str, alpha: float = 0.05) -> bool:
        """People judged ``a`` significantly better than ``b`` (one-sided Wilcoxon, p < alpha)."""
        return self.p_value(a, b) < alpha

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(pair={self.pair!r}, systems={len(self.scores)}, "
                f"references={self.references})")


def _rows(data: bytes) -> list[list[str]]:
    """Whitespace-separated fields of each non-empty line."""
    return [line.split() for line in data.decode("utf-8").splitlines() if line.strip()]


def _human_names(ids: list[str], known: set[str]) -> dict[str, str]:
    """``NAME.N`` id -> test-set name; every id must map to a known system or reference."""
    names = {}
    for ident in ids:
        name, dot, number = ident.rpartition(".")
        if not dot or not number.isdigit():
            raise ValueError(f"human-evaluation system id {ident!r} is not of the form NAME.N")
        if name not in known and name not in HUMAN_REFERENCE_SYSTEMS:
            raise ValueError(f"human-evaluation system {ident!r} matches no system of the "
                             f"test set ({', '.join(sorted(known))})")
        names[ident] = name
    return names


def _square_table(rows: list[list[str]], names: dict[str, str], what: str) -> dict:
    header = rows[0]
    if sorted(header) != sorted(names):
        raise ValueError(f"the {what} table's columns are not the ranked systems")
    table = {}
    for row in rows[1:]:
        if len(row) != len(header) + 1 or row[0] not in names:
            raise ValueError(f"malformed row in the {what} table: {' '.join(row)[:60]}")
        for col, cell in zip(header, row[1:], strict=True):
            table[names[row[0]], names[col]] = cell
    if len(table) != len(header) ** 2:
        raise ValueError(f"the {what} table is not square")
    return table


def load_wmt22_human(pair: str = "zh-en", data_dir: str | os.PathLike | None = None, *,
                     cache_dir: str | os.PathLike | None = None, download: bool = False,
                     verify: bool = True) -> HumanJudgments:
    """WMT22's human judgments (reference-based DA, z-scores) of one pair's systems.

    The files are found like ``load_wmt22``'s (``data_dir``, ``$BLEU_LESSON_WMT22_DIR``,
    the cache; in each a ``humaneval/`` subfolder), are downloaded only with
    ``download=True`` and are checked against their SHA-256. Systems are named as in the
    test-set files; ``HUMAN-B`` is reference B, judged by people as if it were a system.

    A system's z-score is the mean, over its judgments, of each annotator's scores
    standardised: ``z = (x - mean_annotator) / sd_annotator``.
    """
    if pair not in WMT22_HUMAN_PAIRS:
        raise ValueError(f"pair must be one of {', '.join(map(repr, WMT22_HUMAN_PAIRS))} "
                         f"(no human judgments for the others here), got {pair!r}")
    files = {role: _human_file(name, sha, data_dir=data_dir, cache_dir=cache_dir,
                               download=download, verify=verify)
             for role, (name, sha) in WMT22_HUMAN_FILES.items() if role != "segments"}
    known = set(_manifest()["pairs"][pair]["systems"])

    ranking = _rows(files["ranking"])
    if any(len(row) != 6 for row in ranking):
        raise ValueError("the ranking file must have 6 fields per line")
    names = _human_names([row[4] for row in ranking], known)
    for row in ranking:
        if names[row[4]] != row[5]:
            raise ValueError(f"the ranking names {row[4]!r} {row[5]!r}: they disagree")
    missing = known - set(names.values())
    if missing:
        raise ValueError(f"no human score for the test set's systems {sorted(missing)}")

    precise = {}
    header, *body = _rows(files["scores"])
    if header != ["RAW.SCR", "Z.SCR", "N", "SYS", "N.ALL"]:
        raise ValueError(f"unexpected header of the scores file: {header}")
    for raw, z, n, ident, n_all in body:
        precise[ident] = (float(raw), float(z), int(n), int(n_all))
    if set(precise) != set(names):
        raise ValueError("the scores file and the ranking list different systems")

    scores = {}
    for raw, z, n, n_all, ident, _ in ranking:
        p_raw, p_z, p_n, p_all = precise[ident]
        if (round(p_z, 3), int(n), int(n_all)) != (float(z), p_n, p_all) or \
                abs(p_raw - float(raw)) > 0.051:
            raise ValueError(f"the ranking and the scores file disagree about {ident}")
        scores[names[ident]] = HumanScore(names[ident], ident, p_raw, p_z, float(z), p_n, p_all)

    p_cells = _square_table(_rows(files["p_values"]), names, "p-value")
    d_cells = _square_table(_rows(files["differences"]), names, "difference")
    p_values, stars, differences = {}, {}, {}
    for key, cell in p_cells.items():
        p_values[key] = float(cell)
        diff = d_cells[key]
        if diff == "-":
            if key[0] != key[1]:
                raise ValueError(f"'-' off the diagonal of the difference table at {key}")
            differences[key], stars[key] = 0.0, ""
            continue
        mark = diff[len(diff.rstrip("*")):]
        differences[key], stars[key] = float(diff.rstrip("*")), mark
        want = "***" if p_values[key] < 0.001 else "**" if p_values[key] < 0.01 else \
            "*" if p_values[key] < 0.05 else ""
        if mark != want:
            raise ValueError(f"stars {mark!r} disagree with p = {p_values[key]} at {key}")
    return HumanJudgments(pair, scores, p_values, stars, differences,
                          dict(HUMAN_REFERENCE_SYSTEMS))


__all__ += ["HumanJudgments", "HumanScore", "WMT22_HUMAN_FILES", "load_wmt22_human"]
