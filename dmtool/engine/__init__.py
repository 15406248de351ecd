"""The reference rules engines: a shared core (`core`) and one package per game on top of
it (`dawn_of_madness`, `deep_madness`); the games never import each other."""
