"""Learning environments: every variant as a PettingZoo AEC environment (:func:`env`) and a
Gymnasium single-agent environment against bots (:class:`cardgame.rl.gym.SingleAgentEnv`).

Needs the extra ``cardgame[rl]`` (pettingzoo, gymnasium). See docs/rl.md for the spaces, shapes,
rewards and options.
"""

from cardgame.rl import gym  # registers every variant with Gymnasium: gymnasium.make("cardgame/NT-v0")
from cardgame.rl.env import env, raw_env

__all__ = ["env", "gym", "raw_env"]
