"""The b2schema Python package's tests (run by the workspace's tests/python_package.rs with the
built wheel installed into the pinned environment of scripts/pyenv.sh). Every test reads only
the repository's files and its own temporary directory; nothing is skipped."""

import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "data" / "fixtures"
STORES = REPO / "tests" / "data" / "stores"
TABLES = REPO / "tests" / "data" / "tables"


@pytest.fixture
def repo():
    return REPO
