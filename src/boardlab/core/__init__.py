"""The shared core: the generic game façade, outcomes, grid and group utilities."""
