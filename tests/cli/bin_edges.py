"""Pairs that the two programs' rounding may bin differently, for the tests that compare kmol rdf
--gmx with gmx rdf bin by bin (gmx bin k is centred on k w, the first [0, w/2))."""
import numpy as np


class EdgePairs:
    """Counts over frames, from float64 distances, the ordered pairs within `near` of a half-bin
    edge j w/2, per gmx bin: an odd j separates bins (j - 1) / 2 and (j + 1) / 2 and counts in
    both (ties); an even j is the -cn radius (k + 1) w of bin k = j / 2 - 1 (cn_ties). Pairs at
    distance exactly 0 (zero) are counted apart: gmx drops them (its -cut is exclusive)."""

    def __init__(self, width, bins, near):
        self.width, self.bins, self.near = width, bins, near
        self.zero = 0
        self.ties = np.zeros(bins, dtype=int)
        self.cn_ties = np.zeros(bins, dtype=int)

    def add(self, r, one_set):
        """Adds a frame's distance matrix r (rows A, columns B; one set: its diagonal left out)."""
        if one_set:
            r = r[~np.eye(len(r), dtype=bool)]
        r = r.ravel()
        self.zero += int(np.count_nonzero(r == 0))
        j = np.round(r / (self.width / 2)).astype(int)
        edge = j[(np.abs(r - j * self.width / 2) < self.near) & (j >= 1) & (j <= 2 * self.bins)]
        odd, even = edge[edge % 2 == 1], edge[edge % 2 == 0]
        n = self.bins
        self.ties += (np.bincount((odd - 1) // 2, minlength=n + 1) + np.bincount((odd + 1) // 2, minlength=n + 1))[:n]
        self.cn_ties += np.bincount(even // 2 - 1, minlength=n)[:n]
