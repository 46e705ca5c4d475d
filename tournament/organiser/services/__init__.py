"""The organiser's writes, grouped by what they change:

- :mod:`.tournaments`: the tournament's settings (and deleting tournaments);
- :mod:`.registrations`: its players (one by one, from a CSV file read by
  ``tournament.organiser.players_csv``), withdrawn or brought back;
- :mod:`.staff`: its organisers and referees (invited, accepting or declining), and their
  login lock-outs.

A session's lifecycle is ``tournament.sessions.services``; creating a tournament and granting a
role, ``tournament.core.tournaments``. Every service runs inside ``transaction.atomic()``,
takes keyword arguments only and raises ``ValidationError`` with a translated message (keyed by
the form field it concerns, where one does) when the change is refused; a refused change
writes nothing.
"""

from tournament.organiser.services.registrations import (
    player_add,
    players_import_csv,
    registration_reinstate,
    registration_update,
    registration_withdraw,
)
from tournament.organiser.services.staff import (
    staff_account_grant,
    staff_invitation_accept,
    staff_invitation_cancel,
    staff_invitation_decline,
    staff_lockout_lift,
    staff_role_revoke,
)
from tournament.organiser.services.tournaments import (
    tournament_set_up,
    tournament_settings_locked,
    tournament_update,
    tournaments_delete,
)

__all__ = [
    "player_add",
    "players_import_csv",
    "registration_reinstate",
    "registration_update",
    "registration_withdraw",
    "staff_account_grant",
    "staff_invitation_accept",
    "staff_invitation_cancel",
    "staff_invitation_decline",
    "staff_lockout_lift",
    "staff_role_revoke",
    "tournament_set_up",
    "tournament_settings_locked",
    "tournament_update",
    "tournaments_delete",
]
