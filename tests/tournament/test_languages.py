"""French by default, English on request: from the browser's language or the switcher."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

LOCALE = Path(settings.BASE_DIR) / "locale"


def test_french_by_default(client, tournament):
    page = client.get("/t/spring-open/").content.decode()
    assert '<html lang="fr">' in page
    assert "Joueurs" in page and "Se connecter" in page
    assert "placée" in page  # session 1's status


def test_english_from_the_browser(client, tournament):
    page = client.get("/t/spring-open/", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").content.decode()
    assert '<html lang="en">' in page
    assert "Players" in page and "Log in" in page and "seated" in page
    assert "Joueurs" not in page


def test_an_unknown_browser_language_gets_french(client, tournament):
    page = client.get("/t/spring-open/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9").content.decode()
    assert '<html lang="fr">' in page


def test_the_switcher_overrides_the_browser(client, tournament):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/t/spring-open/"},
                           HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 302 and response["Location"] == "/t/spring-open/"
    page = client.get("/t/spring-open/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="en">' in page and "Players" in page
    client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert "Joueurs" in client.get("/t/spring-open/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_switcher_is_on_every_page(client, tournament):
    for url in ("/", "/t/spring-open/", "/login/"):
        page = client.get(url).content.decode()
        assert 'action="/i18n/setlang/"' in page
        assert 'value="en"' in page and 'value="fr"' in page


def unescape(text: str) -> str:
    """A .po string's escapes (\\n, \\", \\\\) are Python's."""
    return ast.literal_eval(f'"{text}"')


def po_entries(path: Path) -> list[tuple[str, str, str, list[str], bool]]:
    """(context, msgid, msgid_plural, msgstr forms, fuzzy) of a .po file, header excluded;
    an entry without plural has one form."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        key = None
        fuzzy = False
        for line in block.splitlines():
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            match = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                fields[key] = match.group(2)
            elif line.startswith('"') and key:
                fields[key] += line[1:-1]
        if fields.get("msgid"):
            forms = [unescape(value) for name, value in fields.items() if name.startswith("msgstr")]
            entries.append(
                (fields.get("msgctxt", ""), unescape(fields["msgid"]),
                 unescape(fields.get("msgid_plural", "")), forms, fuzzy)
            )
    return entries


def test_the_french_catalogue_is_complete_and_compiled():
    entries = po_entries(LOCALE / "fr" / "LC_MESSAGES" / "django.po")
    assert len(entries) > 100
    untranslated = [msgid for _ctx, msgid, _plural, forms, fuzzy in entries
                    if not all(forms) or fuzzy]
    assert not untranslated, f"translate these in locale/fr: {untranslated}"
    with open(LOCALE / "fr" / "LC_MESSAGES" / "django.mo", "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)

    def compiled_forms(ctx: str, msgid: str, plural: str) -> list[str]:
        if plural:  # French: 0 and 1 take the first form
            return [catalogue.ngettext(msgid, plural, 1), catalogue.ngettext(msgid, plural, 2)]
        return [catalogue.pgettext(ctx, msgid) if ctx else catalogue.gettext(msgid)]

    stale = [msgid for ctx, msgid, plural, forms, _fuzzy in entries
             if compiled_forms(ctx, msgid, plural) != forms]
    assert not stale, f"run: python manage.py compilemessages (stale: {stale[:5]})"


def test_the_english_catalogue_is_compiled():
    assert (LOCALE / "en" / "LC_MESSAGES" / "django.mo").is_file()


def test_the_french_catalogue_follows_french_typography():
    """A no-break space before : and », after «, a narrow one before ; ? ! (a line never
    starts with them on a phone), and plurals as plural forms, never "(s)"."""
    entries = po_entries(LOCALE / "fr" / "LC_MESSAGES" / "django.po")
    text = [form for _ctx, _msgid, _plural, forms, _fuzzy in entries for form in forms]
    assert [form for form in text if re.search(r"(^|[^\u00a0]):(\s|$)", form)] == []
    assert [form for form in text if re.search(r"(^|[^\u202f])[;?!](\s|$)", form)] == []
    assert [form for form in text if re.search(r"«[^\u00a0]|[^\u00a0]»", form)] == []
    assert [form for form in text if "(s)" in form or "(e)" in form] == []


def test_counts_take_the_plural_form_of_their_number(organiser_client, tournament):
    from tournament.models import Registration
    Registration.objects.filter(tournament=tournament).exclude(
        pk=Registration.objects.filter(tournament=tournament).first().pk
    ).update(status=Registration.Status.WITHDRAWN)
    page = organiser_client.get("/t/spring-open/organise/").content.decode()
    assert "1 inscription active, 0 arrivée tardive, 7 forfaits." in page
    page = organiser_client.get("/t/spring-open/organise/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 player registered, 0 late arrivals, 7 withdrawals." in page


#: docs/reference/glossary.md's choices the French catalogue holds: one word per thing ("prime", not
#: "bonus"; "partie", not "match") and the words players use at the table.
GLOSSARY_AVOIDED = [r"\bbonus\b(?!-)", r"\bmatch(s)?\b", r"(?i)\bmoteur\b", r"\bRégler la manche\b",
                    r"\bElo\b"]
AS_PLAYERS_SAY = {
    ("", "Settle the round"): "Faire le décompte",
    ("", "Draws 3, does not place"): "Pioche 3 tuiles sans poser",
    ("", "Engine: %(points)s"): "Calcul\u00a0: %(points)s",
    ("", "as computed"): "comme le calcul",
    ("", "Engine's verdict"): "Verdict du calcul",
    ("a shared rank in words", "%(rank)s="): "%(rank)s ex\u00a0æquo",
    ("a rank in words, its number", "%(rank)s"): "%(rank)se",
    ("between the items of a list", "; "): "\u202f; ",
}


def test_the_french_catalogue_says_things_as_players_do():
    entries = po_entries(LOCALE / "fr" / "LC_MESSAGES" / "django.po")
    placeholders = re.compile(r"%\([a-z_]+\)[sd]|\{[a-z_]+\}")
    for pattern in GLOSSARY_AVOIDED:
        found = [forms for _ctx, _msgid, _plural, forms, _fuzzy in entries
                 if any(re.search(pattern, placeholders.sub("", form)) for form in forms)]
        assert found == [], pattern
    french = {(ctx, msgid): forms[0] for ctx, msgid, _plural, forms, _fuzzy in entries}
    for key, wanted in AS_PLAYERS_SAY.items():
        assert french[key] == wanted, key


def test_times_shared_ranks_and_elisions_as_french_writes_them(organiser_client, tournament):
    import datetime

    from django.utils import translation

    from tournament.kit.formats import long_datetime, rank_words
    from tournament.names import elide
    with translation.override("fr"):
        assert long_datetime(datetime.datetime(2027, 4, 1, 15, 55)) == "1er avril 2027 à 15\u00a0h\u00a055"
        assert [rank_words(label) for label in ("1", "3=", "12")] == ["1er", "3e ex\u00a0æquo", "12e"]
        assert elide("le forfait de Amélie, que Inès, de Zoé") == "le forfait d’Amélie, qu’Inès, de Zoé"
    with translation.override("en"):
        assert rank_words("3=") == "3=" and elide("de Amélie") == "de Amélie"
    from tournament.organiser.services import player_add
    player_add(tournament=tournament, name="Amélie Ménard", club="Club")
    page = organiser_client.get("/t/spring-open/organise/players/").content.decode()
    assert "Oui, déclarer le forfait d’Amélie Ménard" in page
    assert "de Amélie" not in page


def test_the_players_page_counts_with_plural_forms(organiser_client, tournament):
    from tournament.models import Registration
    registrations = Registration.objects.filter(tournament=tournament)
    Registration.objects.filter(pk=registrations.first().pk).update(
        status=Registration.Status.WITHDRAWN)
    page = organiser_client.get("/t/spring-open/organise/players/").content.decode()
    assert "7 inscriptions actives, 0 arrivée tardive, 1 forfait." in page
    assert "forfaits" not in page.split('id="registration-counts"')[1].split("</span>")[0]


def test_no_template_puts_a_bare_colon_after_a_word_it_shows():
    """A ":" written in a template after a value ("{{ verdict }}: …") has no no-break space
    before it in French ("invérifiable: sans…"): it goes through the catalogue
    (``pgettext("before a detail", ": ")``), as the sentences around it do."""
    from django.conf import settings

    found = []
    for path in sorted((Path(settings.BASE_DIR) / "templates").rglob("*.html")):
        text = path.read_text()
        text = re.sub(r"\{% blocktranslate.*?\{% endblocktranslate %\}", "", text, flags=re.S)
        text = re.sub(r"\{% translate .*?%\}|\{#.*?#\}", "", text)
        found += [f"{path.name}: {match.group(0)}"
                  for match in re.finditer(r"(\}\}|%\})\s?:\s", text)]
    assert found == []
