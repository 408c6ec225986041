"""Time `epigraph ask`: a cold call (a new process answering one question) and `--batch` (questions per second).

Usage: python benchmarks/ask.py [--calls 7] [--batch-questions N (default: all distinct dev questions)]

A cold call is a fresh `epigraph ask "..."` process with the graph built and its served copy on disk (the script
makes both first if they are missing): the time includes Python's start, the imports, loading the served state and
answering. It is measured on several questions and the median is printed, next to the time the same call takes
without the served copy (the previous behaviour: the index, lexicon and normaliser rebuilt in the process), measured
once in the same run. The calls run with Python's default bytecode caching (PYTHONDONTWRITEBYTECODE, set on some
machines, is dropped for them: an installed package has its bytecode written once). The batch figure answers the
distinct development questions (data/questions/dev.jsonl) in one process.
Bars (issue 13): cold p50 <= 1.5 s; batch >= 20 questions/s with the offline reader.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time
from pathlib import Path

QUESTIONS = ["Can bupropion cause seizures?", "How is Rett syndrome inherited?", "Which genes cause Dravet syndrome?",
             "At what age does Dravet syndrome usually begin?", "Which antiseizure drug should I avoid in an HLA-B*15:02 carrier?",
             "Is valproate safe for a girl with a POLG variant?", "What CSF finding points to GLUT1 deficiency?"]

def cold(question: str, env=None) -> float:
    t0 = time.perf_counter()
    subprocess.run(["epigraph", "ask", question], check=True, capture_output=True, env=env)
    return time.perf_counter() - t0

def no_served_copy(question: str) -> float:
    "The same call with the served copy bypassed: the state built in the process, as before."
    code = ("import sys, time; t=time.perf_counter(); from epigraph.answer import answer, default_retriever; "
            f"answer({question!r}, retriever=default_retriever()); print(time.perf_counter()-t)")
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    return time.perf_counter() - t0

def main(calls: int, batch_questions: int) -> int:
    from epigraph.ask import served_retriever, ask_batch
    served_retriever()                                  # build the graph and the served copy if missing
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cold(QUESTIONS[0], env)                             # one untimed call: Python writes its bytecode caches
    times = [cold(QUESTIONS[k % len(QUESTIONS)], env) for k in range(calls)]
    before = no_served_copy(QUESTIONS[0])
    p50 = statistics.median(times)
    print(f"cold `epigraph ask`: p50 {p50:.2f} s over {calls} calls (min {min(times):.2f}, max {max(times):.2f}); "
          f"without the served copy {before:.2f} s ({before / p50:.1f}x slower); bar p50 <= 1.5 s")
    dev = [json.loads(l)["question"] for l in (Path(__file__).parents[1]/"data/questions/dev.jsonl").read_text().splitlines() if l.strip()]
    with tempfile.TemporaryDirectory() as d:
        # distinct questions only: a repeated one would reuse the remembered parse (`answer.parsed_once`)
        qs = Path(d)/"q.txt"; qs.write_text("\n".join(list(dict.fromkeys(dev))[:batch_questions]) + "\n")
        res = ask_batch(qs, Path(d)/"a.jsonl")
    print(f"--batch: {res['answered']} answered, {res['failed']} set aside, {res['per_second']} questions/s "
          f"({res['seconds']} s); bar >= 20 questions/s")
    return 0

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=7); ap.add_argument("--batch-questions", type=int, default=1000)
    a = ap.parse_args()
    sys.exit(main(a.calls, a.batch_questions))
