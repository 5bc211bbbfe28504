"""``--ray`` and ``--ray-address``, the options of ``check``, ``arena`` and ``simulate`` that
send their games to a Ray cluster (``meeple.cli.bots.parallel``)."""

from meeple.cli.output import fail


def ray_option(on: bool, address: str | None) -> None:
    """``--ray`` and ``--ray-address``: the work goes to Ray (``meeple.cli.bots.parallel``)."""
    if address is not None and not on:
        fail("--ray-address goes with --ray", 2)
    if on:
        from meeple.cli.bots.parallel import use_ray

        use_ray(address)
