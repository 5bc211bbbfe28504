"""The limits of a game log, which ``read`` refuses to pass and ``append`` and ``create``
refuse to write past: the longest line, the largest file, the most lines."""

#: bytes in one line, without its newline
MAX_LINE_BYTES = 1 << 20
#: bytes in a whole log
MAX_FILE_BYTES = 64 << 20
#: lines (events) in a log
MAX_EVENTS = 100_000
