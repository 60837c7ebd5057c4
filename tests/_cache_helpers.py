"""Damaged copies of hhparse's checked cache files (``hhparse.cachefiles.write_checked``): the
driver's file and the EV kernel's tables are each refused and rebuilt when damaged the same ways."""

from __future__ import annotations

import hashlib


def damaged_copy(whole: bytes, damage: str) -> bytes | None:
    """``whole`` damaged as ``damage`` names (``empty``, ``half``, ``a byte``: the checksum no
    longer fits), or None for a kind of damage the owner's test makes itself."""
    if damage == "empty":
        return b""
    if damage == "half":
        return whole[: len(whole) // 2]
    if damage == "a byte":
        return whole[:-100] + bytes([whole[-100] ^ 1]) + whole[-99:]
    return None


def resigned(magic: bytes, payload: bytes) -> bytes:
    """A file of ``payload`` whose checksum fits (its contents are for the owner to refuse)."""
    return magic + hashlib.sha256(payload).digest() + payload
