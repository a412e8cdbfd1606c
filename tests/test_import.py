"""Importing collide2d stays cheap: Numba is imported (and kernels compiled) on first use only."""

import subprocess
import sys


def test_import_does_not_load_numba():
    code = "import sys, collide2d; print('numba' in sys.modules, 'matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"], "import collide2d must not import numba or matplotlib"


def test_public_names_resolve():
    import collide2d

    missing = [name for name in collide2d.__all__ if not hasattr(collide2d, name)]
    assert missing == []
