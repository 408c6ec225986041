#!/usr/bin/env python
"""Chapter 24's chain questions in three wordings: the chapter's templates, the development rewordings
(`data/questions/chain_dev.jsonl`, tuned on) and the sealed rewordings (`data/questions/sealed/chain_rewordings.jsonl`,
never tuned on). Issue 47 #3.

The questions and their gold answers are chapter 24's (`figures/24_retrieval/question_list.csv`, written by the
chapter; run `epigraph reproduce 24` first). As in the chapter, per kind the triplets that link a question's start
and answer directly are removed before retrieving, and a question counts as answered when its gold answer is among
the first `--k` (30) nodes the retriever returns. Only the chain kinds (two hops or more) are read.

    python scripts/chain_questions.py [--sets template dev sealed] [--retrievers ppr_pcst semantic ...]

Prints one table: wording set × retriever → share answered, for ≥ 3 hops and for all chain questions.
"""
from __future__ import annotations
import argparse, json, sys, time
from pathlib import Path
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT/"figures"/"24_retrieval"/"question_list.csv"
DEV = ROOT/"data"/"questions"/"chain_dev.jsonl"
SEALED = ROOT/"data"/"questions"/"sealed"/"chain_rewordings.jsonl"
RETRIEVERS = ["ppr_pcst", "ppr_pcst_no_intent", "semantic", "hybrid", "baseline", "u_retrieval", "hypergraph"]

def wordings(Q: pd.DataFrame, which: str) -> pd.DataFrame:
    "(qid, kind, hops, start, answer, text) rows of one wording set."
    if which == "template": return Q.assign(text=Q.question)
    rows = [json.loads(l) for l in (DEV if which == "dev" else SEALED).read_text(encoding="utf-8").splitlines() if l]
    if which == "dev":
        return pd.concat([Q[Q.kind == r["kind"]].assign(text=lambda d, t=r["text"]: d.start_name.map(
            lambda s: t.replace("{s}", s))) for r in rows], ignore_index=True)
    by_qid = Q.set_index("qid")
    out = [dict(by_qid.loc[r["of"]["qid"]], qid=r["of"]["qid"], text=r["text"]) for r in rows
           if r["set"] == "chapter24_questions" and r["of"]["qid"] in by_qid.index]
    return pd.DataFrame(out)

def reduced_indexes(kg, Q: pd.DataFrame) -> dict:
    "Per kind, the graph without the triplets linking a question's start and answer (chapter 24, cell 'Removing')."
    from epigraph.retrieval import GraphIndex, TableGraph, link_seeds
    from epigraph.baselines import retrieve_semantic
    T = kg.triplets[~kg.triplets.suppressed.fillna(False).astype(bool)].reset_index(drop=True)
    full = GraphIndex(TableGraph(kg.entities, T))
    link_seeds(full, "warm-up"); retrieve_semantic(full, "carbamazepine")
    pair = pd.Series([frozenset(p) for p in zip(T["head"], T["tail"])])
    out = {}
    for kind, g in Q.groupby("kind", sort=False):
        m = pair.isin({frozenset(p) for p in zip(g.start, g.answer)}).to_numpy()
        tables = TableGraph(kg.entities, T[~m])
        tables.evidence = kg.evidence[kg.evidence.triplet_id.isin(set(T.triplet_id[~m]))]
        gi = GraphIndex(tables)
        for shared in ("node_embeddings", "names"): gi.keep(shared, full.kept(shared))   # built by the warm-up
        out[kind] = gi
    return out

def retrieve(method: str, R, bg, text: str):
    from epigraph.pprpcst import retrieve_ppr_pcst
    from epigraph.baselines import retrieve_semantic, retrieve_hybrid, retrieve_baseline
    gi = R.graph
    if method == "ppr_pcst": return retrieve_ppr_pcst(gi, text)
    if method == "ppr_pcst_no_intent": return retrieve_ppr_pcst(gi, text, intent=False)
    if method == "semantic": return retrieve_semantic(gi, text)
    if method == "hybrid": return retrieve_hybrid(gi, text)
    if method == "baseline": return retrieve_baseline(bg, text)
    return R(text, method)

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", default=["template", "dev"], choices=["template", "dev", "sealed"])
    ap.add_argument("--retrievers", nargs="+", default=["ppr_pcst"], choices=RETRIEVERS)
    ap.add_argument("--k", type=int, default=30)
    ap.add_argument("--out", default="/tmp/chain_results.csv")
    a = ap.parse_args(argv)
    if not QUESTIONS.exists(): sys.exit(f"no {QUESTIONS.relative_to(ROOT)}: run `epigraph reproduce 24` first")
    from epigraph.build import built_kg
    from epigraph.retrieval import Retriever
    from epigraph.baselines import BaselineGraph
    Q = pd.read_csv(QUESTIONS)
    Q = Q[Q.hops >= 2].reset_index(drop=True)
    indexes, rows, t0 = reduced_indexes(built_kg(), Q), [], time.perf_counter()
    for which in a.sets:
        W = wordings(Q, which)
        for kind, g in W.groupby("kind", sort=False):
            gi = indexes[kind]; R = Retriever(gi); bg = BaselineGraph(gi) if "baseline" in a.retrievers else None
            for q in g.itertuples():
                for m in a.retrievers:
                    ids = retrieve(m, R, bg, q.text).nodes.entity_id.tolist()[:a.k]
                    rows.append(dict(set=which, retriever=m, qid=q.qid, kind=kind, hops=q.hops, text=q.text,
                                     answered=q.answer in ids))
    S = pd.DataFrame(rows)
    S.to_csv(a.out, index=False)
    table = pd.concat({"≥3 hops": S[S.hops >= 3].pivot_table("answered", "set", "retriever"),
                       "all chains": S.pivot_table("answered", "set", "retriever"),
                       "questions": S[S.hops >= 3].pivot_table("answered", "set", "retriever", aggfunc="size")}, axis=1)
    print(table.round(3).to_string())
    print(f"({time.perf_counter() - t0:.0f} s; rows in {a.out})")
    return 0

if __name__ == "__main__": sys.exit(main())
