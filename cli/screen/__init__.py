"""``meeple play`` as one screen at a terminal: the board around the action, the tile in
hand, the scores and reserves, the last moves and the prompt, redrawn after every move and
on every resize (``meeple.cli.screen.app``); the pieces of text it shows are built in
``meeple.cli.screen.panels``, a line typed is read as ``meeple.cli.screen.lines`` hands it
over from the line-by-line session, and ``hint`` is ``meeple.cli.screen.hints``."""
