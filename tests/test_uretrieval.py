"U-Retrieval (epigraph.uretrieval): tree cache and rebuild, registration, the index fallbacks, determinism, robustness."
import numpy as np, pandas as pd, pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st, HealthCheck

from epigraph.build import built_kg
from epigraph.retrieval import GraphIndex, Retriever, TableGraph, synthetic_kg, approx_tokens, retriever_names
import epigraph.uretrieval as U

Q_DRAVET = "What is the first-line treatment for Dravet syndrome?"
Q_HLA = "Is carbamazepine safe for a patient who carries HLA-B*15:02?"


@pytest.fixture(scope="module")
def kg(): return built_kg()


@pytest.fixture(scope="module")
def ui(kg): return U.u_index(GraphIndex(kg), kg)


def test_registered_on_import(kg):
    assert "u_retrieval" in retriever_names()
    r = Retriever(kg)(Q_HLA, "u_retrieval")
    assert r.retriever == "u_retrieval" and not r.is_empty and r.params["documents"]


def test_tables_from_saved_graph_when_index_has_none(kg, ui):
    gi = GraphIndex(kg); gi.__dict__.pop("kg", None)    # an index that does not keep its tables
    r = U.u_retrieval(Retriever(gi), Q_HLA)
    assert r.text == U.retrieve_u(ui, Q_HLA).text       # the saved built graph is the same graph
    syn = synthetic_kg(200, 600, seed=2); sgi = GraphIndex(syn); sgi.__dict__.pop("kg", None)
    r = U.u_retrieval(Retriever(sgi), "synthetic entity 3")
    assert r.is_empty and "needs the graph's tables" in r.reason


def test_tree_cache_rebuild_and_key(ui, tmp_path):
    built, key = U.cached_tag_tree(ui.names, ui.vocab, ui.C, folder=tmp_path, rebuild=True)
    assert key == ui.key and built.equals(ui.tree)                    # a rebuild gives the same tree
    assert (tmp_path / f"tree_{key}.parquet").exists()
    # a changed graph (one document graph fewer) gets another key
    assert U.tree_key(ui.names[1:], ui.vocab, ui.C[1:]) != ui.key
    assert U.tree_key(ui.names, ui.vocab, ui.C, threshold=0.6) != U.tree_key(ui.names, ui.vocab, ui.C, threshold=0.5)


def test_merges_respect_threshold(ui):
    "Every merged pair was at least 0.5 similar (cosine of log(1 + count) tag vectors), recomputed from the node counts."
    merged = ui.tree[ui.tree.threshold.notna()]
    for _, row in merged.sample(min(200, len(merged)), random_state=0).iterrows():
        a, b = row.children
        u = U._unit_rows(ui.N[[a, b]].log1p())
        assert float((u[0] @ u[1].T).toarray()[0, 0]) >= max(row.threshold, 0.5) - 1e-6
    assert ui.tree.level.max() <= U.MAX_LAYERS + 1


def test_deterministic_across_indexes(kg, ui):
    fresh = U.UIndex(GraphIndex(kg), kg)
    for q in (Q_DRAVET, Q_HLA):
        a, b = U.retrieve_u(ui, q), U.retrieve_u(fresh, q)
        assert a.text == b.text and a.nodes.equals(b.nodes) and a.edges.equals(b.edges)


def test_budgets(ui):
    for budget in (0, 50, 300, 1500):
        r = U.retrieve_u(ui, Q_DRAVET, token_budget=budget)
        assert approx_tokens(r.text) <= budget
    small = U.retrieve_u(ui, Q_DRAVET, top_n=3, k=2)
    doc_ents = set()
    for d in small.params["documents"]:
        rows = ui.doc_rows[ui.names.index(d)]
        doc_ents |= set(ui.gi.ids[ui.gi.head[rows]]) | set(ui.gi.ids[ui.gi.tail[rows]])
    # the top 3 document entities (the Dravet document, NICE NG217 6.1.2, holds only valproate and the syndrome)
    assert int(small.nodes.entity_id.isin(doc_ents).sum()) == min(3, len(doc_ents)) >= 2
    assert len(small.nodes) <= 3 * 3


def test_tree_on_synthetic_graph(tmp_path):
    "A graph without evidence: one document graph per (sentinel) PMID; the tree covers them all."
    syn = synthetic_kg(300, 900, seed=4)
    ui = U.UIndex(GraphIndex(syn), syn, folder=tmp_path)
    pm = {f"PMID:{p}" for ps in syn.triplets.pmids for p in ps}
    assert set(ui.names) == pm and all(int(n[5:]) >= 900_000_000 for n in ui.names)
    assert int(ui.tree.leaves[ui.tree.parent == -1].iloc[0]) == len(pm)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=80))
def test_any_text_never_raises(ui, text):
    r = U.retrieve_u(ui, text, token_budget=200)
    assert isinstance(r.reason, str) and approx_tokens(r.text) <= 200
    if r.is_empty: assert r.reason                       # an empty result always says why
