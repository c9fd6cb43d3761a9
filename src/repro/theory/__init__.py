"""Each paper's equations, one module per paper; docstrings cite equation numbers and the chapter using them."""
