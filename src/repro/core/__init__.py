"""Layer 0, core: input validation, the book's scale switch, portable printing, atomic files, CPU kernels
and threads, devices, threshold crossings. Imports nothing else of the package.
"""
