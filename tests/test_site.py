"The main job end to end: a chapter regenerates its figures, the offline site renders, and Chromium shows the book."
import re, os, shutil, struct, subprocess, zlib
from pathlib import Path
import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# the whole module on one worker (scripts/test runs pytest with --dist loadgroup): the built fixture (`epigraph
# reproduce 20_data_overview --site`, about 60 s) is built once, not once on each worker that runs one of its tests
pytestmark = pytest.mark.xdist_group("test_site")

@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("book")
    # figures and the site go to a temporary folder; the data folder is the checkout's, so the chapter reads the parsed
    # sources other runs cached there (a fresh one made this fixture parse HPO and MeSH again: 94 s of 14 minutes)
    env = {**os.environ, "EPIGRAPH_FIGURES_DIR": str(tmp/"figures")}
    r = subprocess.run(["epigraph", "reproduce", "20_data_overview", "--no-build", "--site", "--out", str(tmp/"site"), "--quiet"],
                       capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    return tmp, r.stdout

def test_data_overview_writes_its_tables_and_figures(built):
    tmp, out = built
    d = tmp/"figures/20_data_overview"
    names = {p.name for p in d.iterdir()}
    assert {"source_counts.csv", "source_counts.md", "source_counts.png", "source_counts.html"} <= names, names
    assert "20_data_overview" in out and "files regenerated" in out

def _png_size_and_colours(path):
    "Width, height and a rough count of distinct byte values in the decoded image (no image library needed)."
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", data[16:24])
    idat, i = b"", 8
    while i < len(data):
        n = struct.unpack(">I", data[i:i+4])[0]; kind = data[i+4:i+8]
        if kind == b"IDAT": idat += data[i+8:i+8+n]
        i += 12 + n
    return w, h, len(set(zlib.decompress(idat)))

@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (scripts/test installs it with apt-get)")
def test_site_opens_in_chromium_and_shows_the_chapters(built, tmp_path):
    tmp, _ = built
    index = tmp/"site/index.html"
    assert index.exists()
    flags = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path/'profile'}"]
    shot = tmp_path/"index.png"
    subprocess.run(flags + [f"--screenshot={shot}", "--window-size=1280,1600", index.as_uri()],
                   capture_output=True, timeout=120)
    w, h, colours = _png_size_and_colours(shot)
    assert (w, h) == (1280, 1600) and colours > 20   # a rendered page, not a blank one
    dom = subprocess.run(flags + ["--dump-dom", index.as_uri()], capture_output=True, text=True, timeout=120).stdout
    from epigraph.book import book_order, notebook_title, nbs_dir
    for _, nb in book_order():
        assert notebook_title(nbs_dir()/nb) in dom.replace("&amp;", "&"), nb
    chapter = subprocess.run(flags + ["--dump-dom", (tmp/"site/20_data_overview.html").as_uri()],
                             capture_output=True, text=True, timeout=120).stdout
    assert "Records per source" in chapter or "records" in chapter.lower()
    folded = subprocess.run(flags + ["--dump-dom", (tmp/"site/20_data_overview.html").as_uri()],
                            capture_output=True, text=True, timeout=120).stdout
    opened = subprocess.run(flags + ["--dump-dom", (tmp/"site/20_data_overview.html").as_uri() + "#code"],
                            capture_output=True, text=True, timeout=120).stdout
    assert folded.count('<details class="ep-code">') > 3           # a chapter's code: folded, shown on click
    assert opened.count('<details class="ep-code" open="">') == folded.count('<details class="ep-code">')   # #code opens all
    module = (tmp/"site/11_retrieval.html").read_text()
    assert '<details class="ep-code"' not in module and "def link_seeds" in re.sub(r"<[^>]+>", "", module)  # shown
    found = subprocess.run(flags + ["--dump-dom", (tmp/"site/search.html").as_uri() + "?q=tutorial"],
                           capture_output=True, text=True, timeout=120).stdout
    results = found.split('id="results"')[1]
    assert '<a href="tutorial_graph_rag.html">' in results, results[:500]   # the search box finds the tutorial
    assert "name='q'" in module or 'name="q"' in module                       # and every page has the box


def test_every_notebook_is_in_both_sidebars():
    "The site's sidebar (root `_quarto.yml`, which `epigraph.book` reads) and nbdev's (`nbs/`) list every notebook."
    import yaml
    root = Path(__file__).resolve().parents[1]
    listed = lambda p: re.findall(r"[\w-]+\.ipynb", str(yaml.safe_load(p.read_text())))
    site, nbdev = listed(root/"_quarto.yml"), listed(root/"nbs"/"_quarto.yml")
    assert site == nbdev, set(site) ^ set(nbdev)
    notebooks = {p.name for p in (root/"nbs").glob("*.ipynb")}
    assert notebooks <= set(site), notebooks - set(site)
