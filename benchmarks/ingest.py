"""Throughput, memory and incremental cost of `epigraph ingest` on a large synthetic copy of real abstracts.

The corpus: the real BC5CDR (train, dev) and PubMedQA abstracts, copied round-robin under sentinel PMIDs
900000000 + i (synthetic ids, never real citations) into PubMed XML files of 5,000 records, so that every stage runs:
parse -> extraction (dictionary NER and normalisation, rule and learned relations) -> evidence rows -> graph -> save.
Prints documents/s end to end with 1 and 2 Dask workers, the peak RSS of the process tree (each ingest runs in a
fresh process; that process and its workers, sampled every 0.2 s), the time to add 1% more documents and to remove
1%, each next to a full rebuild's time, and a worked estimate of a PubMed-scale build from the measured per-worker rate.
Bars (issue 14): >= 1,500 documents/s with 2 workers; peak RSS <= 2 GB at 50,000 documents; adding 1% <= 5% of a
rebuild.
Also prints what each extraction stage costs per abstract on one core, against the time per abstract the bar allows.
Run: python benchmarks/ingest.py [--n 50000] [--base none|default] [--stages]  (--stages: only the stage costs)
"""
import argparse, queue, shutil, tempfile, threading, time
from pathlib import Path

PUBMED_SIZE = 36_000_000   # the PubMed-scale build issue 14 asks to estimate (36M abstracts)


class PeakRSS:
    "Peak resident memory of a process (this one by default) and all its descendants, sampled in a thread."
    def __init__(self, pid: int|None = None, every: float = 0.2):
        import psutil
        self.proc, self.every, self.peak, self._stop = psutil.Process(pid), every, 0, threading.Event()
    def _rss(self) -> int:
        total = 0
        for p in [self.proc, *self.proc.children(recursive=True)]:
            try: total += p.memory_info().rss
            except Exception: pass
        return total
    def __enter__(self):
        self.t = threading.Thread(target=self._run, daemon=True); self.t.start(); return self
    def _run(self):
        while not self._stop.is_set(): self.peak = max(self.peak, self._rss()); time.sleep(self.every)
    def __exit__(self, *exc): self._stop.set(); self.t.join()


def abstracts():
    "The real abstracts the copies are made from: (title, abstract) of BC5CDR and PubMedQA, in a fixed order."
    import pandas as pd
    from epigraph.sources import load_bc5cdr, load_pubmedqa
    parts = [load_bc5cdr(s)["documents"][["title", "abstract"]] for s in ("train", "dev")]
    q = load_pubmedqa()["items"]
    parts.append(pd.DataFrame(dict(title=q.question, abstract=q.contexts.map(" ".join))))
    return pd.concat(parts, ignore_index=True)


def write_corpus(folder: Path, n: int, start: int, src, per_file: int = 5000) -> list[Path]:
    "n copies under sentinel PMIDs 900000000 + start …, as PubMed XML files of `per_file` records."
    import pandas as pd
    from epigraph.corpus import write_pubmed_xml
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for lo in range(start, start + n, per_file):
        hi = min(lo + per_file, start + n)
        idx = [i % len(src) for i in range(lo, hi)]
        d = pd.DataFrame(dict(pmid=[900_000_000 + i for i in range(lo, hi)], title=src.title.iloc[idx].to_numpy(),
                              abstract=src.abstract.iloc[idx].to_numpy(),
                              date=[f"{2000 + i % 25}" for i in range(lo, hi)]))
        files.append(write_pubmed_xml(d, folder/f"synthetic_{lo:08d}.xml"))
    return files


def _ingest_in_child(paths, graph_dir, base, workers, local_below, out):
    from epigraph.ingest import ingest, IngestParams
    t0 = time.perf_counter()
    params = IngestParams(workers=workers, progress=False, local_below=local_below)
    rep = ingest(paths, graph_dir, base=base, params=params)
    out.put((time.perf_counter() - t0, rep.reconciles, rep.summary(), rep.seconds, rep.triplets_after))


def timed_ingest(paths, graph_dir, base, workers, local_below=0):
    """Seconds, peak RSS, stage seconds and triplets of one ingest (on Dask unless fewer than `local_below` documents).
    Each ingest runs in a fresh process, as a user's `epigraph ingest` does, so that its peak memory is its own, not
    what an earlier run in the same interpreter left behind; the seconds are the `ingest` call's, imports aside."""
    import multiprocessing as mp
    ctx = mp.get_context("spawn"); out = ctx.Queue()
    child = ctx.Process(target=_ingest_in_child, args=(paths, graph_dir, base, workers, local_below, out))
    child.start()
    with PeakRSS(child.pid) as mem:
        while True:   # a child that dies sends nothing: stop waiting then, not never
            try: took, reconciles, summary, seconds, triplets = out.get(timeout=1); break
            except queue.Empty:
                if not child.is_alive(): raise SystemExit(f"the ingest process died (exit code {child.exitcode})")
        child.join()
    assert child.exitcode == 0 and reconciles, summary
    return took, mem.peak, seconds, triplets


def stage_costs(src, n: int = 2000, repeats: int = 3) -> dict[str, float]:
    """Milliseconds per abstract of each extraction stage, in this process on one core, best of `repeats`, on the first
    `n` real abstracts: what one worker spends per document, to set against the time per document a bar allows."""
    import numpy as np, pandas as pd
    from epigraph import adapters, cid, graph, normalise, relations
    from epigraph.ingest import _normaliser
    d = src.iloc[:n]
    keyed = pd.DataFrame(dict(pmid=np.arange(1, len(d) + 1), title=d.title.to_numpy(), abstract=d.abstract.to_numpy()))
    norm, model = _normaliser(), cid.default_model()
    stages = {"entities (dictionary NER, normalisation)": lambda: normalise.extract_entities(keyed, norm, fast=True),
              "mentions by document": lambda: relations.documents_entities(keyed, m),
              "rule relations": lambda: relations.rule_triplets(keyed, m, docs=built),
              "learned relations (CID classifier)": lambda: cid.learned_triplets(keyed, m, model, docs=built),
              "consensus and claims": lambda: adapters._extracted(relations.consensus(rt, lt), graph.INGESTED_PREFIX,
                                                                   entities=False)}
    best = {k: float("inf") for k in stages}
    for _ in range(repeats):
        for k, f in stages.items():
            t0 = time.perf_counter(); out = f(); best[k] = min(best[k], time.perf_counter() - t0)
            if k.startswith("entities"): m = out
            elif k.startswith("mentions"): built = out
            elif k.startswith("rule"): rt = out
            elif k.startswith("learned"): lt = out
    return {k: 1000 * v / len(d) for k, v in best.items()}


def print_stage_costs(src, bar: float = 1500, workers: int = 2) -> None:
    "Each stage's cost per abstract next to the per-abstract time that `bar` documents/s on `workers` workers allows."
    costs = stage_costs(src)
    for k, v in costs.items(): print(f"  {k:<42} {v:6.2f} ms/abstract")
    total, budget = sum(costs.values()), 1000 * workers / bar
    print(f"  {'extraction, one core':<42} {total:6.2f} ms/abstract = {1000 / total:,.0f}/s per worker; "
          f"{bar:,.0f}/s on {workers} workers allows {budget:.2f} ms, parse and graph included ({total / budget:.1f}x)")


def main(n: int, base: str) -> None:
    src = abstracts()
    print("extraction stages, one core, the first 2,000 real abstracts:")
    print_stage_costs(src)
    tmp = Path(tempfile.mkdtemp(prefix="epigraph-ingest-bench-"))
    try:
        files = write_corpus(tmp/"corpus", n, 0, src)
        extra = write_corpus(tmp/"extra", n // 100, n, src)
        print(f"corpus: {n:,} synthetic copies of {len(src):,} real abstracts (sentinel PMIDs) in {len(files)} "
              f"PubMed XML files; base graph: {base}")
        rates = {}
        for w in (1, 2):
            shutil.rmtree(tmp/"g", ignore_errors=True)
            took, peak, seconds, triplets = timed_ingest(files, tmp/"g", base, w)
            rates[w] = n / took
            print(f"{w} worker(s): {took:7.1f} s, {rates[w]:7,.0f} documents/s end to end, "
                  f"peak RSS {peak / 2**30:.2f} GB (stages: {seconds}); {triplets:,} triplets")
        full = n / rates[2]
        from epigraph.ingest import IngestParams
        add = timed_ingest(extra, tmp/"g", None, 2, IngestParams().local_below)[0]   # as a user runs it
        from epigraph.ingest import remove
        gone = [f"PMID:{900_000_000 + i}" for i in range(0, n, 100)]
        t0 = time.perf_counter(); remove(tmp/"g", gone); rem = time.perf_counter() - t0
        print(f"full rebuild (2 workers): {full:.1f} s; add 1% ({n // 100:,} documents): {add:.1f} s "
              f"({add / full:.1%} of a rebuild; bar <= 5%); remove 1% ({len(gone):,}): {rem:.1f} s ({rem / full:.1%})")
        per_worker = rates[1]
        hours = PUBMED_SIZE / per_worker / 3600
        print(f"PubMed scale: {PUBMED_SIZE:,} abstracts at {per_worker:,.0f}/s per worker = {hours:,.1f} worker-hours; "
              f"on a 64-worker Dask cluster about {hours / 64:.1f} h. Evidence rows grow with the corpus: store the "
              f"graph as Parquet partitions by corpus batch, and load it into Neo4j through "
              f"`store.export_neo4j`'s CSV.")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=50_000)
    ap.add_argument("--base", default="none", choices=("none", "default"))
    ap.add_argument("--stages", action="store_true", help="only the per-stage costs per abstract, then stop")
    a = ap.parse_args()
    if a.stages: print_stage_costs(abstracts())
    else: main(a.n, a.base)
