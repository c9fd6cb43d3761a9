"""Layer 4, metrics: what is measured on trained networks and data (representations, learning
phases, the Bayes-optimal accuracy of relation inference, bootstrap standard errors over seeds).
"""
