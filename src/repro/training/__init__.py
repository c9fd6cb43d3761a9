"""Layer 3, training: the one batched trainer, sweeps over configurations, the Langevin sampler of
Rubin et al. and the results store that rebuilds trained histories.
"""
