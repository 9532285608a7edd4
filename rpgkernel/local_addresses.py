"""This machine's addresses in its local networks, and which of them a server port answers on: what
``%rpg spieler`` offers instead of a loopback link. Asked of the machine itself (its interfaces, a
connection to its own address); nothing goes beyond it."""

from __future__ import annotations

import ipaddress
import socket

WAIT = 0.3   # seconds a connection to one of the machine's own addresses may take


def addresses() -> list[str]:
    """The machine's IPv4 addresses other than loopback and link-local ones, in the interfaces' order."""
    try:
        import psutil
        found = [a.address for entries in psutil.net_if_addrs().values() for a in entries
                 if a.family == socket.AF_INET]
    except ImportError:
        try:
            found = [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
        except OSError:
            found = []
    return [a for a in dict.fromkeys(found)
            if not ipaddress.ip_address(a).is_loopback and not ipaddress.ip_address(a).is_link_local]


def listening(port: int) -> list[str]:
    """The machine's network addresses (``addresses``) on which ``port`` takes connections."""
    answering = []
    for address in addresses():
        try:
            with socket.create_connection((address, port), timeout=WAIT):
                answering.append(address)
        except OSError:
            continue
    return answering
