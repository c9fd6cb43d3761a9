"""Layer 2, models: batched networks with a leading run axis, and their hand-written gradients.
"""
