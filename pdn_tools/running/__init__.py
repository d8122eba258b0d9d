"""Running over many inputs: several processes, a Dask cluster, files written safely."""
