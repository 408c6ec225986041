"""The BC5CDR split stays honest: no development abstract reaches anything learned.

The registered training file also holds the 500 development abstracts (same PMIDs, same text). Everything
epigraph learns from BC5CDR (the lexicon's learned terms, the term-precision filter, the CID classifier's
weights, word vocabulary and priors) must see only the other 500. The CID classifier's threshold is the one
thing chosen on the development set, and chapter 21 says so.
"""
import pytest

from epigraph import lexicon, normalise, relations, sources
from epigraph import cid as cid_extractor


@pytest.fixture(scope="module")
def dev_pmids():
    return set(sources.load_bc5cdr("dev")["documents"].pmid)


def test_the_training_file_holds_the_development_abstracts(dev_pmids):
    train = set(sources.load_bc5cdr("train")["documents"].pmid)
    assert len(dev_pmids) == 500 and dev_pmids <= train and len(train) == 1000   # why the split must be cut


def test_training_tables_hold_no_development_pmid(dev_pmids):
    for name, table in relations.bc5cdr_split("train").tables.items():
        assert not set(table.pmid) & dev_pmids, name
    mentions, documents = lexicon.training_mentions(), normalise.training_documents()
    assert not set(mentions.pmid) & dev_pmids and not set(documents.pmid) & dev_pmids
    assert mentions.pmid.nunique() == documents.pmid.nunique() == 500


def test_no_name_annotated_only_in_development_is_learned(dev_pmids):
    key = lexicon.normalise_key
    train_keys = set(lexicon.training_mentions().text.map(key))
    dev_only = set(sources.load_bc5cdr("dev")["mentions"].text.map(key)) - train_keys
    assert len(dev_only) > 100                                   # there are such names, so the check can fail
    terms = lexicon.load_lexicon()["terms"]
    learned = set(terms.key[terms.source == "bc5cdr-train"])
    assert learned and not learned & dev_only
    assert learned <= train_keys


def test_cid_classifier_learns_from_training_abstracts_only(dev_pmids, monkeypatch):
    seen = {}
    fit = cid_extractor.CIDClassifier.fit
    def recording_fit(self, documents, mentions, rels):
        seen.update(documents=set(documents.pmid), mentions=set(mentions.pmid), relations=set(rels.pmid))
        return fit(self, documents, mentions, rels)
    monkeypatch.setattr(cid_extractor.CIDClassifier, "fit", recording_fit)
    model = cid_extractor.train_cid_classifier(use_cache=False)
    assert len(seen["documents"]) == 500
    assert seen["mentions"] <= seen["documents"] and seen["relations"] <= seen["documents"]
    assert not (seen["documents"] | seen["mentions"] | seen["relations"]) & dev_pmids
    assert model.n_train_docs == 500 and not {p for p, _, _ in model.priors.own} & dev_pmids
