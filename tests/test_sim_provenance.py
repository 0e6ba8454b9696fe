"""summary.json's provenance: real package versions, the checkout's commit, "unknown" outside a checkout."""

from __future__ import annotations

import shutil
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

from game.sim.provenance import ROOT, git_commit, package_versions


def test_versions_are_the_installed_distributions_and_a_missing_one_says_so() -> None:
    versions = package_versions(("numpy", "esper", "gridbattle-no-such-distribution"))
    assert versions["numpy"] == metadata.version("numpy") and versions["esper"] == metadata.version("esper")
    assert versions["gridbattle-no-such-distribution"] == "not installed"


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_commit_is_the_checkouts_head_and_unknown_elsewhere(tmp_path: Path) -> None:
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    commit = git_commit(ROOT)
    if head.returncode == 0:
        assert commit.removesuffix("+dirty") == head.stdout.strip()
    else:
        assert commit == "unknown"
    assert git_commit(tmp_path) == "unknown"                  # not a git checkout
    (tmp_path / "inner").mkdir()
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert git_commit(tmp_path) == "unknown"                  # a checkout with no commit yet
    assert git_commit(tmp_path / "inner") == "unknown"        # inside someone else's checkout
