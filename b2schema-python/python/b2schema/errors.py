"""The exceptions b2schema raises: every one is a ``b2schema.Error``, with the library's message
(the file, the place in it, what was expected and what was found)."""


class Error(Exception):
    """Any error b2schema raises."""


class NotAFrameError(Error, ValueError):
    """The file is not a Blosc2 frame (or is a store where a frame was asked for)."""


class TruncatedError(Error, ValueError):
    """The input ends before what it declares."""


class BudgetExceededError(Error, MemoryError):
    """The input asks for more memory or work than the limits allow."""


class ChunkError(Error, ValueError):
    """A Blosc chunk that does not decode."""


class FormatError(Error, ValueError):
    """The bytes break a rule of the format (a marker, a length, a field)."""


class IoError(Error, OSError):
    """Reading or writing failed."""


class NotFoundError(IoError, FileNotFoundError):
    """No such file."""


class KeyNotFoundError(Error, KeyError):
    """A store has no member of that key."""

    def __str__(self):  # KeyError quotes its argument; the message is already whole
        return str(self.args[0]) if self.args else ""


class SelectionError(Error, IndexError):
    """A selection outside the array."""


class ArgumentError(Error, ValueError):
    """An argument b2schema cannot take."""
