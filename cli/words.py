"""The command line's words for what the library says in its own: a library error names
the library's operations, a command line user types them as ``meeple`` commands."""

#: the library's words for what a command line user does with a ``meeple`` command
_CLI_WORDS = (
    ("`repair`", "`meeple repair`"),
    ("read it again and retry", "run `meeple status` and retry"),
    ("or wait longer for locks", "or raise --lock-timeout"),
    ("the first a game_started event)", "the first a game_started event; `meeple new` starts one)"),
    ("started with undo off", "started with undo off (--undo none)"),
)


def cli_words(message: str) -> str:
    """A library's message in the command line's words: the library names its operations
    (`` `repair` ``), a command line user types them as ``meeple`` commands."""
    for library, command_line in _CLI_WORDS:
        message = message.replace(library, command_line)
    return message
