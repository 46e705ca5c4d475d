"""The recording tests play in a session that has started (a seated session refuses entry).

- ``engine_replays``: every replay the engine makes during the test, as
  ``(rounds in the record, first round replayed)``; a list the test may clear.
"""

import pytest

from tournament import engine


@pytest.fixture
def tournament(make_tournament):
    return make_tournament(started=True)


@pytest.fixture
def engine_replays(monkeypatch) -> list[tuple[int, int]]:
    replays: list[tuple[int, int]] = []
    real_replay_record = engine.replay_record

    def counted(record, **options):
        replays.append((len(record.rounds), options.get("first_round", 0)))
        return real_replay_record(record, **options)

    monkeypatch.setattr(engine, "replay_record", counted)
    return replays
