import pytest

from grader.exercises import load_catalog


@pytest.fixture(scope="session")
def exercises():
    return load_catalog()
