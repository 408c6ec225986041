"epigraph.config: files written atomically get the mode a plain write gives them (issue 45, item 17)."
import os, subprocess, sys
import pytest

_WRITE = """
import os, sys
from pathlib import Path
from epigraph.config import write_atomic
os.umask(int(sys.argv[2], 8))
p = Path(sys.argv[1])
open(p.with_suffix(".plain"), "w").write("x")          # what a plain write gives, to compare with
write_atomic(p, "x")
print(oct(p.stat().st_mode & 0o777), oct(p.with_suffix(".plain").stat().st_mode & 0o777))
"""


@pytest.mark.parametrize("umask", ["022", "027", "002", "077"])
def test_write_atomic_gives_the_mode_of_a_plain_write(tmp_path, umask):
    out = subprocess.run([sys.executable, "-c", _WRITE, str(tmp_path / "t.csv"), umask], capture_output=True,
                         text=True, timeout=120, cwd=tmp_path)      # cwd: the installed package, not a checkout's
    assert out.returncode == 0, out.stderr
    atomic, plain = out.stdout.split()
    assert atomic == plain == oct(0o666 & ~int(umask, 8)), out.stdout


def test_write_atomic_keeps_an_existing_files_mode(tmp_path):
    from epigraph.config import write_atomic
    p = tmp_path / "t.csv"
    p.write_text("old"); p.chmod(0o640)
    write_atomic(p, "new")
    assert (p.read_text(), oct(p.stat().st_mode & 0o777)) == ("new", oct(0o640))
