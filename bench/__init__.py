"""Benchmarks: run by `make bench`, never by `make test`."""
