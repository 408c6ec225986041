"""Kill tests: every command that writes (`build`, `reproduce`) is killed (SIGKILL) at random moments, and the
previous output must stay loadable — the graph through `load_kg` with its hashes verified, the chapter tables as
whole CSV files, the executed chapter as a valid notebook — with nothing half-written left in its place.

- `save_kg` (what `epigraph build` ends with) on a small synthetic graph, in a subprocess killed while it saves;
- `epigraph build --out` itself, killed while it works, over a previously saved (synthetic) graph;
- `epigraph reproduce` on a synthetic one-chapter book (EPIGRAPH_HOME), killed while the chapter writes.

The kill moments come from a seeded random generator (reported on failure), spread over the measured duration
of one uninterrupted run. About a minute in all on 2 cores.
"""
import json, os, random, signal, subprocess, sys, time
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from epigraph.store import load_kg

SEED = int(os.environ.get("EPIGRAPH_KILL_SEED", "20261201"))

# ---------------------------------------------------------------- a synthetic graph, saved by a child process

CHILD = r'''
import sys, time
import numpy as np, pandas as pd
from epigraph.graph import KG
from epigraph.store import save_kg
version, rows, folder = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
ids = [f"SYN:{i:07d}" for i in range(rows)]
rng = np.random.default_rng(version)
kg = KG(entities=pd.DataFrame({"entity_id": ["SYN:A", "SYN:B"], "name": [f"synthetic v{version}", "synthetic B"]}),
        triplets=pd.DataFrame({"triplet_id": ["T1"], "head": ["SYN:A"], "predicate": ["associated_with"],
                               "tail": ["SYN:B"]}),
        evidence=pd.DataFrame({"evidence_id": ids, "triplet_id": "T1",
                               "text": rng.integers(0, 10**12, rows).astype(str),
                               "version": str(version)}),
        conflicts=pd.DataFrame({"conflict_id": pd.Series([], dtype=object)}))
print("ready", flush=True)
t0 = time.perf_counter(); save_kg(kg, folder); print(f"saved {time.perf_counter() - t0:.3f}", flush=True)
'''


def _saver(version: int, rows: int, folder: Path) -> subprocess.Popen:
    p = subprocess.Popen([sys.executable, "-c", CHILD, str(version), str(rows), str(folder)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready", p.stderr.read()
    return p


def _version(folder: Path) -> int:
    "The version of the graph saved in `folder`, loaded with every file checked against its manifest."
    kg = load_kg(folder, verify=True)
    versions = set(kg.evidence.version)
    assert len(versions) == 1 and len(kg.evidence) == ROWS, (versions, len(kg.evidence))
    return int(versions.pop())


ROWS = 150_000


def test_save_kg_killed_at_random_moments_leaves_a_loadable_graph(tmp_path):
    rng = random.Random(SEED)
    folder = tmp_path / "kg"
    p = _saver(0, ROWS, folder); out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    took = float(out.split()[-1])                      # one uninterrupted save
    assert _version(folder) == 0
    saved = {0}
    for version in range(1, 7):
        p = _saver(version, ROWS, folder)
        delay = rng.uniform(0, took * 1.3)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL); p.communicate(timeout=30)
        got = _version(folder)                          # loadable, whole, and one of the graphs saved
        assert got in saved | {version}, (SEED, version, delay, got)
        saved.add(got)
    p = _saver(99, ROWS, folder); assert p.wait(timeout=120) == 0, p.stderr.read()   # the next save cleans up
    assert _version(folder) == 99
    assert sorted(x.name for x in tmp_path.iterdir()) == ["kg"], sorted(x.name for x in tmp_path.iterdir())


# ---------------------------------------------------------------- the real `epigraph build --out`

def _epigraph(*args, env=None, **kw):
    return subprocess.Popen(["epigraph", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})}, **kw)


def test_build_killed_while_working_keeps_the_previous_graph(tmp_path):
    "The real command over a saved (synthetic) graph: killed while it assembles, the saved graph is untouched."
    rng = random.Random(SEED + 1)
    folder = tmp_path / "kg"
    p = _saver(7, ROWS, folder); assert p.wait(timeout=120) == 0, p.stderr.read()
    before = {f.name: f.read_bytes() for f in folder.iterdir()}
    for _ in range(1):
        b = _epigraph("build", "--out", str(folder), "--quiet")
        time.sleep(rng.uniform(1.0, 6.0))
        b.send_signal(signal.SIGKILL); b.communicate(timeout=30)
        assert _version(folder) == 7
        assert {f.name: f.read_bytes() for f in folder.iterdir()} == before
    # SIGKILL leaves the lock file (nothing can remove it), but never the lock: it is free, and empty
    assert set(x.name for x in tmp_path.iterdir()) <= {"kg", ".kg.lock"}
    lock = tmp_path / ".kg.lock"
    if lock.exists():
        import fcntl
        with open(lock) as f: fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert lock.read_text() == ""


def test_build_out_file_is_refused_at_once_without_a_lock(tmp_path):
    (tmp_path / "graph.txt").write_text("synthetic: not a folder")
    (tmp_path / "notes").mkdir(); (tmp_path / "notes" / "keep.txt").write_text("synthetic")
    for out, says in [(tmp_path / "graph.txt", "is a file, not a folder"), (tmp_path / "notes", "holds other files")]:
        t0 = time.perf_counter()
        b = _epigraph("build", "--out", str(out), "--quiet"); _, err = b.communicate(timeout=120)
        assert b.returncode == 1 and err.count("\n") == 1 and says in err, err
        assert time.perf_counter() - t0 < 15                         # refused before any work (start-up only)
    assert sorted(x.name for x in tmp_path.iterdir()) == ["graph.txt", "notes"]   # no lock file, nothing written
    assert (tmp_path / "graph.txt").read_text() == "synthetic: not a folder"
    assert [x.name for x in (tmp_path / "notes").iterdir()] == ["keep.txt"]


# ---------------------------------------------------------------- the real `epigraph reproduce`, on a synthetic book

ROWS_TABLE = 40_000
CHAPTER_CELLS = [
    ("code", 'RUN = "first"', {"tags": ["parameters"]}),
    ("code", "import time\nimport pandas as pd\nfrom epigraph.book import save_table\n"
             "for i in range(4):\n"
             f"    save_table(pd.DataFrame({{'x': range({ROWS_TABLE})}}).assign(run=RUN, i=i), 'big', '20_synthetic')\n"
             "    time.sleep(0.2)", {}),
]


def _synthetic_book(root: Path) -> Path:
    "A project root with one synthetic chapter (EPIGRAPH_HOME points here)."
    (root / "nbs").mkdir(parents=True)
    (root / "settings.ini").write_text("[DEFAULT]\nlib_name = synthetic\n")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for kind, src, meta in CHAPTER_CELLS:
        c = nbformat.v4.new_code_cell(src); c.metadata.update(meta); nb.cells.append(c)
    nbformat.write(nb, root / "nbs" / "20_synthetic.ipynb")
    return root


def _reproduce_outputs(root: Path) -> str:
    "The run whose outputs are in place, after checking that each is whole."
    table = pd.read_csv(root / "figures" / "20_synthetic" / "big.csv")
    assert len(table) == ROWS_TABLE and table.run.nunique() == 1 and table.i.nunique() == 1
    md = (root / "figures" / "20_synthetic" / "big.md").read_text().splitlines()
    assert len(md) == ROWS_TABLE + 2
    executed = nbformat.read(root / "figures" / "executed" / "20_synthetic.ipynb", as_version=4)
    nbformat.validate(executed)
    return table.run.iloc[0]


def _descendants(pid: int) -> list[int]:
    "The processes started, directly or not, by `pid` (from /proc)."
    parent = {}
    for d in Path("/proc").iterdir():
        try: parent[int(d.name)] = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (ValueError, OSError, IndexError): pass
    out, todo = [], [pid]
    while todo:
        p = todo.pop(); kids = [c for c, pp in parent.items() if pp == p]; out += kids; todo += kids
    return out


def _kill_tree(pid: int) -> None:
    "SIGKILL `pid` and every process it started (each by its id)."
    for p in [pid, *_descendants(pid)]:
        try: os.kill(p, signal.SIGKILL)
        except ProcessLookupError: pass


def test_reproduce_killed_at_random_moments_keeps_whole_outputs(tmp_path):
    rng = random.Random(SEED + 2)
    root = _synthetic_book(tmp_path / "book")
    env = {"EPIGRAPH_HOME": str(root), "EPIGRAPH_FIGURES_DIR": str(root / "figures")}
    t0 = time.perf_counter()
    r = _epigraph("reproduce", "--no-build", "--quiet", env=env); out, err = r.communicate(timeout=300)
    took = time.perf_counter() - t0
    assert r.returncode == 0, err
    assert _reproduce_outputs(root) == "first"
    for k in range(2):
        params = json.dumps({"20_synthetic": {"RUN": f"kill{k}"}})
        r = _epigraph("reproduce", "--no-build", "--quiet", "--params", params, env=env)
        delay = rng.uniform(0.3 * took, 1.1 * took)
        time.sleep(delay)
        _kill_tree(r.pid)                          # the command and the kernel it started
        r.communicate(timeout=30)
        assert _reproduce_outputs(root) in {"first", *(f"kill{j}" for j in range(k + 1))}, (SEED, k, delay)


# ---------------------------------------------------------------- `epigraph ingest`'s forked workers die with it

def _notes(path: Path, n: int) -> Path:
    "A synthetic JSONL corpus of `n` short abstracts: below `local_below`, so extracted on forked workers."
    drugs = ["Carbamazepine", "Phenytoin", "Valproate", "Lamotrigine", "Topiramate"]
    rows = [dict(id=f"k{i}", title=f"{drugs[i % 5]} case {i}.", date="2020",
                 text=f"{drugs[i % 5]} induced hyponatremia in patient {i} treated for focal epilepsy.")
            for i in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _alive(pids) -> list[int]:
    "The pids of `pids` still running (a zombie, dead but not yet reaped, does not count)."
    import psutil
    out = []
    for p in pids:
        try:
            if psutil.Process(p).status() != psutil.STATUS_ZOMBIE: out.append(p)
        except psutil.NoSuchProcess: pass
    return out


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_killed_ingest_leaves_no_worker_behind(tmp_path, sig):
    "Killed while its forked workers extract, `ingest` takes them with it: none left running (PPID 1) after 5 s."
    notes = _notes(tmp_path / "notes.jsonl", 1900)
    p = _epigraph("ingest", str(notes), "--graph", str(tmp_path / "g"), "--base", "none", "--workers", "2", "--quiet")
    workers, t0 = [], time.perf_counter()
    try:
        while len(workers) < 2 and p.poll() is None and time.perf_counter() - t0 < 240:
            workers = _descendants(p.pid); time.sleep(0.02)
        assert len(workers) >= 2, f"no workers seen; ingest exited {p.poll()}: {p.stderr.read() if p.poll() else ''}"
        p.send_signal(sig); p.wait(timeout=30)   # not communicate: a live worker holds the pipes
        deadline = time.perf_counter() + 5
        while _alive(workers) and time.perf_counter() < deadline: time.sleep(0.1)
        left = _alive(workers)
        assert not left, f"{len(left)} workers left running after {sig.name}"
    finally:
        for w in _alive(workers): os.kill(w, signal.SIGKILL)   # only the ones this test saw started
        if p.poll() is None: p.kill()
        p.stdout.close(); p.stderr.close()
