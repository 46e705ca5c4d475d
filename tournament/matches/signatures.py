"""Every seat signs: each player's word on a round of a match its table keeps the score of
(docs/guides/organiser.md, "Every seat signs").

A seat signs with its seat code (:func:`seat_code`), printed beside its name on the score
sheet and typed on the table's scorer phone passed round the table, or from its own phone
through its seat's link (:func:`seat_path`). Both are keyed hashes, under the site's secret
key, of the match, the seat and the table's ``TableScorer.salt``, which nothing stores: the
sheet handed over to another phone (a new salt) makes new codes and links and refuses the
old ones. A code is :data:`CODE_LENGTH` characters of an alphabet without look-alikes
(31 letters and digits: about 35 bits); its wrong tries are limited per client address and
per match (``tournament.matches.services.signatures``). A link is 22 characters of base64
(132 bits), as the scorer's.

A signature is for the round as it stands (:func:`round_digest`): its current turns and
end, its scores and the match's totals after it (the sum of its scores and the rounds'
before it), never a later round's: the scorer phone going on with the next round while the
seats sign changes nothing they sign. A correction of the round (or of a round before it)
makes a new digest, and the signatures given before no longer count.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass

from django.db.models import Count, F
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from tournament.matches.reading.replay import match_replay
from tournament.matches.reading.replayed_rounds import ReplayedRound
from tournament.matches.reading.rows import MatchRows, match_rows
from tournament.models import Round, RoundEnd, RoundSignature, Seat, TableScorer, Turn

CODE_SALT = "tournament.matches.signatures.code"
LINK_SALT = "tournament.matches.signatures.link"
#: The seat code's alphabet: capitals and digits without 0/O, 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 7
#: The seat link's token: 22 characters of base64, as the scorer link's.
TOKEN_LENGTH = 22


def seat_code(scorer: TableScorer, seat: int) -> str:
    """The code printed beside seat ``seat``'s name on the table's score sheet."""
    digest = salted_hmac(CODE_SALT, f"{scorer.match_id}:{seat}:{scorer.salt}",
                         algorithm="sha256").digest()
    number = int.from_bytes(digest, "big")
    letters = []
    for _position in range(CODE_LENGTH):
        number, index = divmod(number, len(CODE_ALPHABET))
        letters.append(CODE_ALPHABET[index])
    return "".join(letters)


def typed_code(code: str) -> str:
    """A code as typed, read as printed: capitals, spaces and dashes left out."""
    return "".join(str(code).split()).replace("-", "").upper()[:CODE_LENGTH * 2]


def code_matches(scorer: TableScorer, seat: int, code: str) -> bool:
    """Is ``code`` seat ``seat``'s code as the sheet now is (compared in constant time)?"""
    return constant_time_compare(typed_code(code), seat_code(scorer, seat))


def seat_token(scorer: TableScorer, seat: int) -> str:
    """The token of seat ``seat``'s own link."""
    digest = salted_hmac(LINK_SALT, f"{scorer.match_id}:{seat}:{scorer.salt}",
                         algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).decode()[:TOKEN_LENGTH]


def token_seat(scorer: TableScorer, token: str, seats: int) -> int | None:
    """The seat whose link ``token`` is, as the sheet now is; None for none. Every seat is
    compared, in constant time."""
    if not isinstance(token, str) or len(token) != TOKEN_LENGTH:
        return None
    found = None
    for seat in range(seats):
        if constant_time_compare(token, seat_token(scorer, seat)):
            found = seat
    return found


def seat_path(scorer: TableScorer, seat: int) -> str:
    """Seat ``seat``'s own link (short: the match's id and the token)."""
    return reverse("tournament:seat_link", kwargs={
        "match_id": scorer.match_id, "token": seat_token(scorer, seat)})


def _digest(round_pk: int, turn_ids, end_pk: int | None, scores, totals) -> str:
    text = (f"{round_pk}|{','.join(str(pk) for pk in turn_ids)}|{end_pk or '-'}|"
            f"{list(scores)}|{list(totals)}")
    return hashlib.sha256(text.encode()).hexdigest()


def _totals_after(rounds_scores) -> list[int]:
    """The match's totals after a round: the sum, seat by seat, of its stored scores and
    those of the rounds before it (``rounds_scores``), as the engine resumes a match from
    them. Not ``Match.totals``: those include the round in play's running scores."""
    totals: list[int] = []
    for scores in rounds_scores:
        for seat, score in enumerate(scores):
            if seat == len(totals):
                totals.append(0)
            totals[seat] += int(score)
    return totals


def round_digest(rows: MatchRows, round_: Round) -> str:
    """What a seat signs of ``round_``: its current turns and end (each correction is a new
    row), its scores and the match's totals after it, as the last write stored them (a later
    round's turns change none of them)."""
    end = rows.ends.get(round_.pk)
    if round_.pk in rows.unloaded:  # a settled round read without its turns: their ids
        ids = list(Turn.objects.current().filter(round=round_).order_by("index")
                   .values_list("pk", flat=True))
    else:
        ids = [turn.pk for turn in rows.turns.get(round_.pk, ())]
    totals = _totals_after(r.scores for r in rows.rounds if r.index <= round_.index)
    return _digest(round_.pk, ids, end.pk if end is not None else None, round_.scores, totals)


@dataclass(frozen=True)
class RoundSignatures:
    """The signatures that count for a round as it stands (its digest's)."""

    seats: int
    agreed: frozenset[int]
    disputes: tuple[RoundSignature, ...]

    @property
    def disputed(self) -> bool:
        return bool(self.disputes)

    @property
    def signed(self) -> int:
        return len(self.agreed) + len({s.seat for s in self.disputes})

    @property
    def complete(self) -> bool:
        return not self.disputes and len(self.agreed) == self.seats


def round_signatures(signatures, *, digest: str, seats: int) -> RoundSignatures:
    """The signatures of ``digest`` among ``signatures`` (a round's)."""
    current = [s for s in signatures if s.digest == digest]
    return RoundSignatures(
        seats=seats, agreed=frozenset(s.seat for s in current if s.agreed),
        disputes=tuple(s for s in current if not s.agreed))


def signatures_record(signatures) -> list[dict]:
    """Who signed what, as the audit keeps it."""
    return [{"seat": s.seat, "agreed": s.agreed, "reason": s.reason, "device": s.device,
             "own_phone": s.own_phone, "digest": s.digest[:12], "at": s.at.isoformat()}
            for s in signatures]


def disputed_round(rows: MatchRows) -> Round | None:
    """The first round of the match, not confirmed, that a seat disputes as it stands: the
    round is frozen for the table's scorer until a referee decides (one query)."""
    open_rounds = {r.pk: r for r in rows.rounds if r.confirmed_at is None and r.pk is not None}
    disputes = RoundSignature.objects.filter(round_id__in=open_rounds, agreed=False)
    for signature in disputes.order_by("round_id"):
        round_ = open_rounds[signature.round_id]
        if signature.digest == round_digest(rows, round_):
            return round_
    return None


def signing_states(*, session) -> dict[int, tuple[int, RoundSignatures]]:
    """For each match of ``session`` with a round closed and not confirmed, its first such
    round's index and the signatures that count for it as it stands (five queries, whatever
    the session's size)."""
    rounds = list(Round.objects.filter(match__table__session=session, confirmed_at__isnull=True)
                  .filter(ends__superseded_at__isnull=True).exclude(end_kind="unfinished")
                  .annotate(table_id=F("match__table_id"))
                  .order_by("match_id", "index").distinct())
    first: dict[int, Round] = {}
    for round_ in rounds:
        first.setdefault(round_.match_id, round_)
    pks = [r.pk for r in first.values()]
    turns: dict[int, list[int]] = {}
    for round_id, pk in (Turn.objects.current().filter(round_id__in=pks)
                         .order_by("round_id", "index").values_list("round_id", "pk")):
        turns.setdefault(round_id, []).append(pk)
    ends = dict(RoundEnd.objects.current().filter(round_id__in=pks)
                .values_list("round_id", "pk"))
    scores_up_to: dict[int, list[list[int]]] = {}  # match: the rounds' scores to its first
    for match_id, index, scores in (Round.objects.filter(match_id__in=first)
                                    .order_by("match_id", "index")
                                    .values_list("match_id", "index", "scores")):
        if index <= first[match_id].index:
            scores_up_to.setdefault(match_id, []).append(scores)
    signatures: dict[int, list[RoundSignature]] = {}
    for signature in RoundSignature.objects.filter(round_id__in=pks):
        signatures.setdefault(signature.round_id, []).append(signature)
    seats = dict(Seat.objects.filter(session=session).values("table_id")
                 .annotate(n=Count("pk")).values_list("table_id", "n"))
    states = {}
    for match_id, round_ in first.items():
        digest = _digest(round_.pk, turns.get(round_.pk, []), ends.get(round_.pk),
                         round_.scores, _totals_after(scores_up_to.get(match_id, [])))
        states[match_id] = (round_.index, round_signatures(
            signatures.get(round_.pk, []), digest=digest,
            seats=seats.get(round_.table_id, 0)))
    return states


@dataclass(frozen=True)
class SigningRound:
    """The round a match's seats are asked to sign: the first closed and not confirmed, as
    it stands (``digest``), with the signatures that count for it."""

    round: ReplayedRound
    digest: str
    names: list[str]
    totals: tuple[int, ...]
    revision: int
    state: RoundSignatures
    frozen: bool

    def seat_words(self) -> list[dict]:
        """Each seat's word so far: ``agreed``, ``disputed`` or ``waiting``."""
        disputed = {s.seat for s in self.state.disputes}
        return [{"seat": seat, "name": name,
                 "word": ("agreed" if seat in self.state.agreed else
                          "disputed" if seat in disputed else "waiting")}
                for seat, name in enumerate(self.names)]


def round_to_sign(*, match) -> SigningRound | None:
    """The round ``match``'s seats are asked to sign now, or None (none closed and waiting).

    Replayed from that round: the confirmed rounds before it are taken from their stored
    scores, their turns not loaded (``match_rows``' ``settled_stored``), so that the page
    costs the round to sign and those after it (the round in play), whatever the match's
    length. Its digest is made from its rows as a write's is (:func:`round_digest`); the
    totals shown are the match's after that round, what a seat signs (not the round in
    play's)."""
    rows = match_rows(match=match, settled_stored=True)
    row = next((r for r in rows.rounds if r.pk in rows.ends and r.confirmed_at is None), None)
    if row is None:
        return None
    replay = match_replay(match=match, rows=rows, settled_before=row.index)
    shown = next((r for r in replay.rounds if r.closed and not r.confirmed), None)
    if shown is None:
        return None
    digest = round_digest(rows, shown.row)
    state = round_signatures(shown.row.signatures.all(), digest=digest, seats=len(rows.seats))
    return SigningRound(round=shown, digest=digest, names=rows.names,
                        totals=tuple(shown.totals_after), revision=replay.match.revision,
                        state=state, frozen=state.disputed)
