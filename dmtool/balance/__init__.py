"""Many seeded games on a process pool or a Dask cluster: statistics and reports."""
