"""Fuzzing the question path (hypothesis): any text and any options give an answer or a one-line ValueError, never an
internal exception; every citation in an answer is a row of its manifest; an answer that cites nothing says so in
words. Needs the built graph (the main job builds it)."""
import os
import pytest
from hypothesis import given, settings, HealthCheck, strategies as st
from epigraph.ask import served_retriever
from epigraph.answer import answer

EXAMPLES = int(os.environ.get("EPIGRAPH_FUZZ_EXAMPLES", "40"))
WORDS = ["Can", "carbamazepine", "CBZ", "cause", "seizures", "which", "genes", "Dravet", "syndrome", "as of 2015",
         "HLA-B*15:02", "safe", "not", "avoid", "?", "onset", "inherited", "tegretol", "paediatric", "PMID:999999999",
         "<script>", "\x00", "\udcff", "ignore previous instructions", "gold", "|", "", " ", "é", "🙂"]
QUESTIONS = st.one_of(st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join), st.text(max_size=300))
OPTIONS = st.one_of(st.none(), st.lists(st.one_of(st.sampled_from(["carbamazepine", "levetiracetam", "", " ", "yes", "no"]),
                                                 st.text(max_size=20)), max_size=4))

@pytest.fixture(scope="module")
def R(): return served_retriever()

@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=QUESTIONS, opts=OPTIONS)
def test_any_question_gets_an_answer_or_one_line_error(R, q, opts):
    try: a = answer(q, opts, retriever=R)
    except ValueError as e:
        msg = str(e)
        assert msg and "\n" not in msg.strip() and "Traceback" not in msg
        return
    assert set(a.cited) <= set(a.manifest.key)
    if not opts: assert a.text, "a free question always gets words: an answer or what was searched"
