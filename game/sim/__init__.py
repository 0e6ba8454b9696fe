"""Simulations: many headless battles on a process pool or Dask, reduced to rows, a table and plots."""
