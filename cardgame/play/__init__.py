"""Playing a game: the ``Game`` API around a dispatcher, what each seat may see, bots and their
views, the seed AI, and the narration of a hand."""
