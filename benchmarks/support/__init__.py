"""Helpers the benchmark scripts share (not a benchmark: ``make bench`` runs
only ``benchmarks/*.py``)."""
