"""The reference rules engines: a shared core (`core`) and one package per game on top of
it (`dawn_of_madness`, `deep_madness`); the games never import each other.

`core`, `dawn_of_madness` and `deep_madness` may be compiled with mypyc (dmtool/engine/build.py); the
guard below runs the pure Python sources instead when the build is older than them, or
when DMTOOL_ENGINE=pure (see manifest.py)."""

from dmtool.engine import manifest

# "compiled", or "pure: " and why (bench/play_bench.py prints it).
ENGINE = manifest.guard()
