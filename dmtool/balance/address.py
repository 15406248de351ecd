"""`--scheduler ADDRESS`, read before anything connects: a malformed address is a usage
error, not a failure deep inside the cluster library."""

from __future__ import annotations

import socket

from dmtool.errors import UsageError
from dmtool.patterns import lazy

# How long a connection to the scheduler, and its handshake, may take.
CONNECT_SECONDS = 10
# tcp:// (Dask's default) or tls://, a host name or address ([...] for IPv6), a port.
_ADDRESS = lazy(r"(?:(tcp|tls)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):([0-9]{1,5})/?")


def scheduler_address(text: str) -> tuple[str, str, int]:
    """(the address as Dask takes it, host, port) of what --scheduler was given."""
    found = _ADDRESS.fullmatch(text.strip())
    port = int(found.group(3)) if found else 0
    if found is None or not 0 < port < 65536:
        raise UsageError(f"--scheduler: {text!r} is not a scheduler address; give "
                         "tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786.")
    scheme, host = found.group(1) or "tcp", found.group(2)
    return f"{scheme}://{host}:{port}", host.strip("[]"), port


def reach(host: str, port: int, target: str, seconds: float = CONNECT_SECONDS) -> None:
    """A usage error unless something listens at the address: a refused port is said at
    once, an unroutable host after `seconds` (whether it is a Dask scheduler is for the
    handshake to tell)."""
    try:
        socket.create_connection((host, port), timeout=seconds).close()
    except OSError as error:
        reason = "timed out" if isinstance(error, TimeoutError) else (
            error.strerror or type(error).__name__)
        raise UsageError(f"--scheduler: cannot reach a Dask scheduler at {target} "
                         f"({reason}).") from None
