"""The Plackett-Luce update of openskill's ``PlackettLuce().rate`` for one player per team, ranks given,
in time linear in the entrants rather than quadratic.

openskill sums, for each entrant i, a term over every entrant q ranked no lower than i: 20,000
rated entrants take it over a minute, 100,000 half an hour. Those terms share two prefix sums:

    omega_i = 1 / A_i - e_i * P1(r_i)          P1(r) = sum over q with r_q <= r of 1 / (S_q A_q)
    delta_i = e_i * P1(r_i) - e_i^2 * P2(r_i)  P2(r) = sum over q with r_q <= r of 1 / (S_q^2 A_q)

where e_i = exp(mu_i / c), S_q the sum of e over q and the entrants ranked below q, and A_q how
many share q's rank. The model's defaults are used (tau, beta, kappa; the gamma sqrt(sigma^2) / c;
no sigma limit, no balance). Entrants who tie each keep their own change of mu, as openskill's do
(its averaging over a tie reads the changed ratings as the old, so it changes nothing). The
numbers agree with openskill's to the last few bits, the order of summation being the only
difference (``tests/server/competitions/test_rating_speed.py``).
"""

from __future__ import annotations

import math
from itertools import groupby, pairwise

from openskill.models import PlackettLuce


def rate_ranked(model: PlackettLuce, before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """The new (mu, sigma) of each entrant, given (mu, sigma) before and ranks in standings order
    (never decreasing; equal ranks tie)."""
    n = len(before)
    if n != len(ranks) or any(b < a for a, b in pairwise(ranks)):
        raise ValueError("ranks must be as many as the entrants and in standings order")
    tau_squared, beta_squared = model.tau * model.tau, model.beta**2
    corrected = [math.sqrt(sigma * sigma + tau_squared) for _, sigma in before]  # sigma corrected with tau
    sigma_squared = [sigma * sigma for sigma in corrected]
    c = math.sqrt(sum(s + beta_squared for s in sigma_squared))
    e = [math.exp(mu / c) for mu, _ in before]
    # The groups of equal rank, as (first index, end index).
    groups: list[tuple[int, int]] = []
    start = 0
    for _, members in groupby(ranks):
        size = len(list(members))
        groups.append((start, start + size))
        start += size
    # S of a group: e summed over it and every entrant ranked below it.
    suffix = [0.0] * len(groups)
    total = 0.0
    for g in range(len(groups) - 1, -1, -1):
        first, end = groups[g]
        total += math.fsum(e[first:end])
        suffix[g] = total
    mu_after = [0.0] * n
    sigma_after = [0.0] * n
    p1 = p2 = 0.0
    for g, (first, end) in enumerate(groups):
        size = end - first
        s = suffix[g]
        p1 += 1.0 / s  # the group's A_q = size entrants each add 1 / (S_q A_q)
        p2 += 1.0 / (s * s)
        for i in range(first, end):
            var = sigma_squared[i]
            omega = (1.0 / size - e[i] * p1) * var / c
            delta = (e[i] * p1 - e[i] * e[i] * p2) * var / (c * c)
            delta *= math.sqrt(var) / c  # the model's gamma
            mu_after[i] = before[i][0] + omega
            sigma_after[i] = corrected[i] * math.sqrt(max(1 - delta, model.kappa))
    return list(zip(mu_after, sigma_after, strict=True))
