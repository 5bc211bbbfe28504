"""``meeple play`` as one screen at a terminal: the board around the action, the tile in
hand, the scores and reserves, the last moves and the prompt, redrawn after every move and
on every resize (``meeple.cli.screen.app``); the pieces of text it shows are built in
``meeple.cli.screen.panels``."""
