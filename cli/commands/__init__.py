"""The commands of ``meeple``, by topic; ``meeple.cli.app`` joins them."""
