"""Bots at scale (``meeple.cli.bots``): ``arena`` and ``simulate``, the processes or Ray
cluster they and ``check`` spread games over, and the statistics of a match."""
