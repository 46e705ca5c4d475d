"""Every figure computed a second time, apart from the code that makes it (docs/development/architecture.md,
"The figures"): from the confirmed match records alone, replayed through the engine, the
standings, the absences, the final's places, the categories, the club teams, the prize list,
the league points and the ratings; then compared with what the app shows.

- :mod:`.records`: the confirmed matches replayed, and the tournament's players, as plain values;
- :mod:`.recount`: the tournament's figures recounted from them (pure);
- :mod:`.rerate`: the rating history rated again, and a league's points (pure but for reading);
- :mod:`.shown`: the app's figures as a reader gets them (its selectors and views);
- :mod:`.check`: the two compared, the differences listed (``figures_check``);
- :mod:`.views`, :mod:`.urls`: the organiser's page of the check.

``records``, ``recount`` and ``rerate`` import none of the app's ranking, standings, teams,
printing, leagues or rating services (a contract of ``pyproject.toml`` holds it): a mistake
there cannot hide in both computations at once.
"""
