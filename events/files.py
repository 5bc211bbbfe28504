"""Reading a file someone else may have made: only a regular file, and never more than a limit.

A path can name ``/dev/zero`` (endless), a FIFO (a read that never returns) or
a symlink to either; the size a file claims is no bound either. ``read_regular``
opens without blocking, refuses anything but a regular file, and reads at most
``limit + 1`` bytes, so a hostile path costs little.
"""

from __future__ import annotations

import os
import stat

_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


class NotReadable(Exception):
    """A file that is missing, not a regular file, larger than allowed or unreadable."""

    def __init__(self, reason: str, *, missing: bool = False, too_large: bool = False):
        self.reason = reason
        self.missing = missing
        self.too_large = too_large
        super().__init__(reason)


def kind_of(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words."""
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def read_regular(path: str, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    :raises NotReadable: missing, not a regular file, over ``limit`` bytes, or an OS error.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise NotReadable("no such file", missing=True) from None
    except OSError as exc:
        raise NotReadable(f"cannot open: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotReadable(f"is {kind_of(mode)}, not a regular file")
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        raise NotReadable(f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise NotReadable(f"is larger than the limit of {limit:,} bytes", too_large=True)
    return data
