"""Layer 1, data: the binary-operation tasks, image data sets and binary relations the chapters train on.
"""
