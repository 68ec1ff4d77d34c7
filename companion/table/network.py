"""The addresses a table's devices can reach this server at (joining).

No Flet here: the server prints these at start and the host screen shows them.
"""

import ipaddress
import socket

import psutil

ANY = ("0.0.0.0", "::", "")
"""Bind addresses meaning every interface."""


def lan_addresses() -> list[str]:
    """IPv4 addresses of this computer's network interfaces that other devices can reach
    (private LAN addresses first; loopback and link-local left out)."""
    found: list[str] = []
    for addrs in psutil.net_if_addrs().values():
        for a in addrs:
            if a.family != socket.AF_INET:
                continue
            ip = ipaddress.ip_address(a.address)
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
                continue
            if a.address not in found:
                found.append(a.address)
    return sorted(found, key=lambda x: (not ipaddress.ip_address(x).is_private, x))


def base_urls(host: str, port: int) -> list[str]:
    """Addresses to open the app at: one per LAN interface when the server listens on every
    interface, else the one it listens on."""
    if host in ANY:
        hosts = lan_addresses() or ["127.0.0.1"]
    else:
        hosts = [host]
    return [f"http://{h if ':' not in h else f'[{h}]'}:{port}" for h in hosts]


def join_url(base: str, table_id: str) -> str:
    """The join address of a table."""
    return f"{base.rstrip('/')}/join/{table_id}"


def host_url(base: str, key: str) -> str:
    """The address that makes a browser the host (it carries the host key)."""
    return f"{base.rstrip('/')}/?key={key}"
