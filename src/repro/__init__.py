"""repro: the helper package behind the book *Physics-style theories of grokking, reproduced*.

Tasks, batched models and trainer, metrics, claims, a results store and plotting; each paper's
theory lives in its own module. Chapters import from here and hold only narrative and configs.
"""
__version__ = "0.1.0"
