"""Learning environments: every variant as a PettingZoo and Gymnasium environment (extra ``cardgame[rl]``)."""
