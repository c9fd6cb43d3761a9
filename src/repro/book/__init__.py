"""Layer 7, book tooling: claims and verdicts, the status page, notebook refresh, paper-scale dry runs,
the cluster command line and benchmarks.
"""
