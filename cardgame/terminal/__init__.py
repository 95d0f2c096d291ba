"""Terminal play: the table drawn with rich (:mod:`~cardgame.terminal.render`), typed actions read
into the game's (:mod:`~cardgame.terminal.prompt`) and one person against bots
(:mod:`~cardgame.terminal.play`)."""
