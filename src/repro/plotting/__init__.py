"""Layer 6, plotting: the house style and the panels shared by several chapters.
"""
