import pytest

from grader.catalog import load_catalog


@pytest.fixture(scope="session")
def exercises():
    return load_catalog()
