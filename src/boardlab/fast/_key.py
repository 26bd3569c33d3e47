"""Position keys for a kernel's ``position_key`` (:mod:`boardlab.fast.kernels`):
the words that decide a game from here on, mixed into one 64-bit hash.

A search that shares a node between positions reached by different move
orders (``transpose``) looks each new position up by this key, so two
different positions must almost never share one: each word is folded in by
a xor, a multiplication by an odd 64-bit constant and a xor-shift (the
finaliser of MurmurHash3's 64-bit mix), which spreads every input bit over
the whole word. The key is never 0 (the search's table marks empty slots
with 0)."""

from __future__ import annotations

from numba import int64, njit, uint64

_M1 = uint64(0xFF51AFD7ED558CCD)
_M2 = uint64(0xC4CEB9FE1A85EC53)
_SEED = uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def start() -> uint64:
    """The hash before any word."""
    return _SEED


@njit(cache=True, inline="always")
def mix(h, word):
    """``h`` with one more ``int64`` word folded in."""
    h = (h ^ uint64(word)) * _M1
    h ^= h >> uint64(33)
    h *= _M2
    return h ^ (h >> uint64(29))


@njit(cache=True, inline="always")
def finish(h):
    """The key: the hash as a nonzero ``int64``."""
    return int64(h | uint64(1))
