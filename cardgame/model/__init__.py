"""The poker model: cards, the deck, the table, the hand in progress, pots, betting structures
and what is legal, the events that record every change, and the context stages share."""
