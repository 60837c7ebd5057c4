"""The splitter cuts only on header lines and records file line numbers, whatever the encoding."""

from __future__ import annotations

import io
from pathlib import Path

from hhparse.splitter import BLOCK_BINARY, BLOCK_PREAMBLE, BLOCK_SUMMARY, split_file, split_stream, split_text

H1 = "PokerStars Hand #1:  Omaha Pot Limit ($0.05/$0.10 USD) - 2009/01/01 1:00:00 ET"
H2 = "PokerStars Game #2:  Omaha Pot Limit ($0.05/$0.10 USD) - 2009/01/01 1:00:00 ET"


def test_cut_on_headers_glued_and_blank() -> None:
    text = f"\n\n{H1}\nx\n{H2}\ny\n\n\n\nPokerStars Zoom Hand #3:  a\nz"
    blocks = list(split_text(text, "f"))
    assert [b.line for b in blocks] == [3, 5, 10]
    assert blocks[0].text == f"{H1}\nx\n"


def test_chat_quoting_a_header_does_not_cut() -> None:
    text = f'{H1}\nPlayer0 said, "PokerStars Hand #9: hi"\n'
    assert len(list(split_text(text))) == 1


def test_crlf_bom_and_no_final_newline(tmp_path: Path) -> None:
    p = tmp_path / "a.txt"
    p.write_bytes(b"\xef\xbb\xbf" + f"{H1}\r\nx \r\n\r\n{H2}\r\ny".encode())
    blocks = list(split_file(p))
    assert [b.line for b in blocks] == [1, 4]
    assert blocks[0].text.startswith("PokerStars")
    assert blocks[1].text == f"{H2}\ny\n"


def test_utf16_and_cp1252(tmp_path: Path) -> None:
    p = tmp_path / "u16.txt"
    p.write_bytes(f"{H1}\r\nRaúl\r\n".encode("utf-16"))
    assert [b.text for b in split_file(p)] == [f"{H1}\nRaúl\n"]
    q = tmp_path / "cp.txt"
    q.write_bytes(f"{H1}\nP0CK€TF@CE$ Raúl\n".encode("cp1252"))
    assert "P0CK€TF@CE$ Raúl" in next(iter(split_file(q))).text


def test_binary_preamble_summary_empty() -> None:
    assert next(split_stream(io.BytesIO(b"\x00\x01abc"), "b")).kind == BLOCK_BINARY
    assert next(split_stream(io.BytesIO(b"junk\n" + H1.encode()), "p")).kind == BLOCK_PREAMBLE
    summary = b"PokerStars Tournament #447493868, No Limit Omaha Hi/Lo\nBuy-In: $1.08\n"
    assert next(split_stream(io.BytesIO(summary), "s")).kind == BLOCK_SUMMARY
    assert list(split_stream(io.BytesIO(b""), "e")) == []
    assert list(split_stream(io.BytesIO(b"\n\n\n"), "e")) == []


def test_concatenated_files_keep_their_hands_apart(tmp_path: Path) -> None:
    # Regression: `cat a.txt b.txt` of two BOM files left a BOM before b's first header, which then
    # did not count as a header, so b's first hand was glued to a's last one.
    a = b"\xef\xbb\xbf" + f"{H1}\r\nx\r\n\r\n".encode()
    b = b"\xef\xbb\xbf" + f"{H2}\r\ny\r\n".encode()
    p = tmp_path / "cat.txt"
    p.write_bytes(a + b)
    for blocks in (list(split_file(p)), list(split_text((a + b).decode("utf-8-sig"), "t"))):
        assert [(b.line, b.text) for b in blocks] == [(1, f"{H1}\nx\n\n"), (4, f"{H2}\ny\n")]
    u16 = tmp_path / "cat16.txt"
    u16.write_bytes(f"{H1}\nx\n".encode("utf-16") + f"{H2}\ny\n".encode("utf-16"))
    assert [b.text for b in split_file(u16)] == [f"{H1}\nx\n", f"{H2}\ny\n"]


def test_truncated_utf16_is_read_not_raised(tmp_path: Path) -> None:
    # Regression: an odd-length UTF-16 file (a live one caught mid-write) raised
    # UnicodeDecodeError, which aborted the whole import.
    p = tmp_path / "u16.txt"
    p.write_bytes(f"{H1}\r\nx\r\n{H2}\r\ny".encode("utf-16") + b"\x00")
    blocks = list(split_file(p))
    assert [b.line for b in blocks] == [1, 3]
    assert blocks[0].text == f"{H1}\nx\n"
    assert blocks[1].text.startswith(f"{H2}\ny") and "\ufffd" in blocks[1].text
