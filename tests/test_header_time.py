"""The header's time in UTC, read through the memo of each local hour's offset
(``hhparse.parsing._utc``): the same result (or the same error) as converting through the zone
every time, around every change of offset and at the ends of the calendar."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from hhparse import parsing

ZONES = sorted(set(parsing.TIME_ZONES.values()))


def _direct(local: datetime, zone: str) -> datetime | type[Exception]:
    try:
        return local.replace(tzinfo=ZoneInfo(zone)).astimezone(UTC)
    except (ValueError, OverflowError):
        return Exception


def _memo(local: datetime, zone: str) -> datetime | type[Exception]:
    date, time = local.strftime("%Y/%m/%d"), local.strftime("%H:%M:%S")
    if local.year < 1000:
        date = f"{local.year:04d}/{local.month:02d}/{local.day:02d}"
    try:
        return parsing._utc(local, zone, date, time)
    except (ValueError, OverflowError):
        return Exception  # (the header reads either as an impossible date)


def _same(local: datetime, zone: str) -> None:
    direct, memo = _direct(local, zone), _memo(local, zone)
    assert direct == memo, (zone, local, direct, memo)
    if isinstance(direct, datetime):
        assert isinstance(memo, datetime)
        assert memo.tzinfo is direct.tzinfo and memo.fold == direct.fold


def test_a_change_of_offset_reads_alike_through_the_memo_in_every_zone() -> None:
    """Every 7 minutes of the days a zone changes its offset (2012-2013 and 1960, when some
    zones changed at other hours), visited forwards and backwards so that each time is read
    once from a cold memo and once from one filled by its neighbours."""
    for zone in ZONES:
        info = ZoneInfo(zone)
        days = []
        for year in (1960, 2012, 2013):
            day = datetime(year, 1, 1)
            while day.year == year:
                start = day.replace(tzinfo=info).utcoffset()
                end = (day + timedelta(hours=23, minutes=59, seconds=59)).replace(tzinfo=info).utcoffset()
                if start != end:
                    days.append(day)
                day += timedelta(days=1)
        times = [d + timedelta(minutes=7 * i) for d in days for i in range(2 * 24 * 60 // 7)]
        for order in (times, times[::-1]):
            parsing._OFFSETS.clear()
            for local in order:
                _same(local, zone)


def test_a_fold_of_one_does_not_fill_the_memo_for_the_hours_other_times() -> None:
    """(found by hypothesis) a time in the hour skipped by a change of offset, read with fold=1
    (after the change), then with fold=0 (before it): each converts as the zone says."""
    parsing._OFFSETS.clear()
    gap = datetime(2324, 3, 30, 2, 30)
    for local in (
        gap.replace(fold=1),
        gap,
        datetime(2024, 3, 31, 2, 10, fold=1),
        datetime(2024, 3, 31, 2, 20),
    ):
        _same(local, "Europe/Paris")


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(ZONES),
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59, 59)),
    st.lists(st.integers(min_value=-3599, max_value=3599), max_size=4),
)
def test_any_time_reads_alike_through_the_memo(zone: str, local: datetime, steps: list[int]) -> None:
    local = local.replace(microsecond=0)
    _same(local, zone)
    for step in steps:  # other times of the same hour, read from the memo the first one filled
        try:
            other = local.replace(minute=0, second=0) + timedelta(seconds=abs(step))
        except OverflowError:
            continue
        if other.hour == local.hour:
            _same(other, zone)
