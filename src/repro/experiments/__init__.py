"""Layer 6, experiments: one module per chapter, named after it (``book/<stem>.py`` uses
``repro.experiments.<stem>``; a chapter with several experiment modules adds a suffix).
"""
