"""The distribution's package data beyond the package's own files.

The schemas and the games' own content (Dawn of Madness components, Deep Madness
chapters) live at the top of the repository, where authors and editors find them; a
built wheel carries copies under dmtool/_data/ (read by dmtool/packaged.py), so an
installed dmtool checks an author's repository against them. Everything else is in
pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
# What is copied, from the repository's root to dmtool/_data/ (kept in step with
# dmtool/packaged.py's GAME_FOLDERS and MANIFEST.in).
TREES = ("schemas", "content/dawn-of-madness", "content/deep-madness")


class BuildWithData(build_py):
    """build_py, then the trees copied into the build's dmtool/_data/."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads the trees where they are
            return
        data = Path(self.build_lib) / "dmtool" / "_data"
        for tree in TREES:
            source = HERE / tree
            if not source.is_dir():
                raise SystemExit(f"setup.py: {tree}/ is missing; build from a full checkout")
            target = data / tree
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))


setup(cmdclass={"build_py": BuildWithData})
