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


def _split(data: bytes) -> list[tuple[int, str, str | None]]:
    return [(b.line, b.text, b.fault and b.fault.code) for b in split_stream(io.BytesIO(data), "f")]


def test_one_bad_byte_changes_one_line() -> None:
    # Regression (issue #13, finding 4): after one byte that is not UTF-8, every later line was
    # read as cp1252, so a later "Raúl" became "RaÃºl".
    data = f"{H1}\nRaúl\n".encode() + b'Hero said, "caf\xe9 Ra\xc3\xbal"\n' + f"{H2}\nRaúl\n".encode()
    blocks = _split(data)
    assert [t for _, t, _ in blocks] == [f'{H1}\nRaúl\nHero said, "café Raúl"\n', f"{H2}\nRaúl\n"]
    assert next(split_text('x\n"\x81"')).text  # text already decoded: untouched
    undefined = _split(f"{H1}\n".encode() + b"a\x81b\n")
    assert undefined[0][1] == f"{H1}\na\ufffdb\n"


def test_nul_tail_is_a_block_of_its_own() -> None:
    # Regression (finding 5): 41 hands and the NULs a crash leaves were one "binary file".
    hands = "".join(f"PokerStars Hand #{n}:  Omaha\nx\n\n\n" for n in range(1, 42)).encode()
    blocks = _split(hands + b"\x00" * 512)
    assert len(blocks) == 42 and all(f is None for _, _, f in blocks[:41])
    assert blocks[41][0] == 41 * 4 + 1 and blocks[41][2] == "nul-bytes"


def test_crash_then_the_client_appends() -> None:
    h2 = f"{H2}\nSeat 1: Hero ($2 in chips)\n"
    data = f"{H1}\nx\n\n\n".encode() + h2[:70].encode() + b"\x00" * 700 + f"{H1}\ny\n".encode()
    blocks = _split(data)
    assert [(line, f) for line, _, f in blocks] == [(1, None), (5, "nul-bytes"), (5, None)]
    assert blocks[1][1] == h2[:70].replace("\r", "") + "\x00" * 700 + "\n"
    assert blocks[2][1] == f"{H1}\ny\n"
    at_start = _split(f"{H1}\nx\n\n".encode() + b"\x00" * 9 + f"{H2}\ny\n".encode())
    assert [(line, f) for line, _, f in at_start] == [(1, None), (4, "nul-bytes"), (4, None)]
    first = _split(b"\x00" * 9 + f"{H1}\ny\n".encode())
    assert [(line, f) for line, _, f in first] == [(1, "nul-bytes"), (1, None)]


def test_nul_line_inside_a_hand_damages_that_hand() -> None:
    blocks = _split(f"{H1}\nx\n".encode() + b"\x00\x00\n" + f"y\n{H2}\n".encode())
    assert [(line, f) for line, _, f in blocks] == [(1, "nul-bytes"), (5, None)]


def test_first_bytes_of_the_next_header_are_not_glued_to_the_hand_before() -> None:
    # Regression (finding 10): a file ending in "PokerStars Hand #1213" made the complete hand
    # before it a reject.
    for eol in ("\n", "\r\n"):
        data = f"{H1}{eol}x{eol}{eol}{eol}PokerStars Hand #1213".encode()
        assert [(line, t) for line, t, _ in _split(data)] == [
            (1, f"{H1}\nx\n\n\n"),
            (5, "PokerStars Hand #1213\n"),
        ]
    glued = _split(f"{H1}\nxPokerStars Hand #1213".encode())  # no blank line: it is the hand's
    assert len(glued) == 1
    assert [t for _, t in ((b.line, b.text) for b in split_text(f"{H1}\n\nPok"))] == [f"{H1}\n\n", "Pok\n"]


def test_a_damaged_header_does_not_glue_its_hand_to_the_one_before() -> None:
    # A hand never holds an empty line: what follows one and is not a header starts a block of
    # its own, so the complete hand before it stays whole (and valid).
    damaged = H2.replace("Game #2", "Gxme #2")
    for eol in ("\n", "\r\n"):
        data = eol.join([H1, "x", "", "", damaged, "y", "", "", H1.replace("#1:", "#3:"), "z", ""]).encode()
        assert [(line, t) for line, t, _ in _split(data)] == [
            (1, f"{H1}\nx\n\n\n"),
            (5, f"{damaged}\ny\n\n\n"),
            (9, f"{H1.replace('#1:', '#3:')}\nz\n"),
        ]
    blank_lines = f"{H1}\nx\n\n \n\t\n\n{H2}\n".encode()  # blank (not empty) lines between hands
    assert [line for line, _, _ in _split(blank_lines)] == [1, 7]


def test_blank_lines_after_an_empty_line_do_not_glue_what_follows_to_the_hand_before() -> None:
    # Regression (fuzz: a hand with its header lost, after an empty line and a line holding a
    # space): a blank line reset "after an empty line", so the headerless text was glued to the
    # complete hand before it, which became a reject.
    for eol in ("\n", "\r\n"):
        for gap in (["", " "], ["", " ", "\t", " "], ["", " ", "", "\t"]):
            data = eol.join([H1, "x", *gap, "Seat 2: y", "z", "", H2, "w", ""]).encode()
            n = 3 + len(gap)
            assert [(line, t) for line, t, _ in _split(data)] == [
                (1, f"{H1}\nx\n" + "".join(g + "\n" for g in gap)),
                (n, "Seat 2: y\nz\n\n"),
                (n + 3, f"{H2}\nw\n"),
            ], (eol, gap)
