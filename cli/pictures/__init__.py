"""Pictures of a game (``meeple.cli.pictures``): the text board and tile sheet, the SVG board and
sheet, the HTML replay and the narrative of events. What an edition looks like is its own data
(``Edition.look``); these modules only render it."""
