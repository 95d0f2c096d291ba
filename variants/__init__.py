"""Poker variants, each a function returning its stage list; look them up with :func:`get`."""

from variants.holdem import ante_holdem, fixed_limit_holdem, no_limit_holdem
from variants.omaha import pot_limit_omaha
from variants.registry import Variant, available, get, register

__all__ = [
    "Variant",
    "ante_holdem",
    "available",
    "fixed_limit_holdem",
    "get",
    "no_limit_holdem",
    "pot_limit_omaha",
    "register",
]

register(Variant("no-limit hold'em", "NT", no_limit_holdem, "No-limit Texas hold'em with blinds", 10))
register(Variant("fixed-limit hold'em", "FT", fixed_limit_holdem, "Fixed-limit Texas hold'em", 10))
register(Variant("pot-limit omaha", "PO", pot_limit_omaha, "Pot-limit Omaha high", 10))
register(Variant("ante hold'em", None, ante_holdem, "Blind-less no-limit hold'em with antes only", 10))
