"""How people's names sort: as a reader looks one up in a printed list.

The databases compare names code point by code point (SQLite always; PostgreSQL under the C
collation it is often given), which puts "Élodie" and "Łukasz" after "Zoé". Every list of
players sorted by name sorts with :func:`name_sort_key` instead, in Python.
"""

from __future__ import annotations

import re
import unicodedata

from django.utils.translation import get_language

#: Letters that Unicode does not decompose into a base letter and an accent, as a phone
#: keyboard types them ("duboeuf" for "Dubœuf"). The public "find your table" box folds what
#: is typed with this same table (the page hands it to pages.js).
FOLDED_LETTERS = {
    "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th",
}
_UNDECOMPOSED = str.maketrans(FOLDED_LETTERS)

#: Words that open a surname ("Marie de La Fontaine", "Pieter van Dijk"); a sorted list looks
#: the surname up past them.
_PARTICLES = {"de", "du", "des", "d'", "d’", "van", "von", "der", "den", "di", "da", "del",
              "della", "le", "la", "les", "ten", "ter"}


def name_sort_key(name: str) -> tuple[str, str]:
    """Sort names as a reader looks them up: accents and case aside, then exactly.

    >>> sorted(["Zoé", "Élodie", "Łukasz", "emma", "Søren", "Sarah"], key=name_sort_key)
    ['Élodie', 'emma', 'Łukasz', 'Sarah', 'Søren', 'Zoé']
    """
    folded = name.casefold().translate(_UNDECOMPOSED)
    plain = "".join(
        char for char in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(char)
    )
    return plain, name


def search_key(text: str) -> str:
    """``text`` as a name search compares it: accents, case and ligatures aside.

    >>> search_key("Lefèvre-Dubœuf") == search_key("LEFEVRE-DUBOEUF")
    True
    """
    return name_sort_key(text)[0].strip()


def person_key(name: str, club: str) -> tuple[str, str]:
    """(name, club) as the likely same person is looked for: :func:`search_key` of each, so
    that "ÉMILE DUBŒUF" of "club A" is the "Émile Dubœuf" of "Club A" whatever the database
    (SQLite's ``lower()`` folds ASCII letters only).

    >>> person_key("ÉMILE DUBŒUF", "club A") == person_key("Émile Dubœuf", "Club A")
    True
    """
    return search_key(name), search_key(club)


def split_name(name: str) -> tuple[str, str]:
    """(given names, surname) of a name written given names first, as players register.

    The surname is the last word, or from the first particle on ("de La Fontaine"); a name of
    one word is all surname.

    >>> split_name("Hélène Lefèvre-Dubœuf")
    ('Hélène', 'Lefèvre-Dubœuf')
    >>> split_name("Marie de La Fontaine")
    ('Marie', 'de La Fontaine')
    >>> split_name("Jean Pierre Martin")
    ('Jean Pierre', 'Martin')
    """
    words = name.split()
    if len(words) < 2:
        return "", name.strip()
    for index in range(1, len(words) - 1):
        if words[index].casefold() in _PARTICLES:
            return " ".join(words[:index]), " ".join(words[index:])
    return " ".join(words[:-1]), words[-1]


#: The particles a sorted list passes over, as French lists sort (docs/reference/glossary.md,
#: "Sorting by surname"): the prepositions "de" and "d'", and the German and Dutch "von" and
#: "van" with the article that may follow them. The articles "Le", "La", "Les", "Du" and
#: "Des", and the Italian "Di", "Da", "Del", "Della", belong to the surname and sort with it.
_PASSED_OVER = {"de", "d'", "d’", "von", "van", "der", "den", "ten", "ter"}
_ELIDED_DE = re.compile(r"^[dD]['’](?=\w)")


def surname_sort_key(name: str) -> tuple[str, str, str]:
    """Sort names by surname, as a French list of players is read: the surname past its
    prepositions ("de", "d'"), its articles kept ("Le Goff" under L, "de La Fontaine" under
    L, "d'Alembert" under A), accents and case aside, then the given names.

    >>> sorted(["Zoé Abel", "Amélie Zola", "Marie de La Fontaine", "Élodie Ménard",
    ...         "Gaël Le Goff", "Jean d'Alembert", "Anne de Villiers", "Luc Du Bellay"],
    ...        key=surname_sort_key)  # doctest: +NORMALIZE_WHITESPACE
    ['Zoé Abel', "Jean d'Alembert", 'Luc Du Bellay', 'Marie de La Fontaine', 'Gaël Le Goff',
     'Élodie Ménard', 'Anne de Villiers', 'Amélie Zola']
    """
    given, surname = split_name(name)
    return search_key(sorted_surname(surname)), search_key(given), name


def sorted_surname(surname: str) -> str:
    """The part of ``surname`` a French list sorts it under.

    >>> [sorted_surname(s) for s in ["de La Fontaine", "Le Goff", "d’Alembert", "van der Berg"]]
    ['La Fontaine', 'Le Goff', 'Alembert', 'Berg']
    """
    words = surname.split()
    while len(words) > 1 and words[0].casefold() in _PASSED_OVER:
        words = words[1:]
    if words and _ELIDED_DE.match(words[0]) and len(words[0]) > 2:
        words[0] = words[0][2:]
    return " ".join(words)


_ELIDED = re.compile(r"\b([Dd]e|[Qq]ue) (?=[AEIOUÂÊÎÔÛÉÈÀÆŒaeiouâêîôûéèàæœ])")


def elide(text: str) -> str:
    """``text`` with :func:`french_elisions` when the active language is French."""
    language = get_language() or ""
    return french_elisions(text) if language.startswith("fr") else text


def french_elisions(text: str) -> str:
    """French text whose names were put in after translation, elided as French writes them:
    "le forfait de Amélie" → "le forfait d’Amélie", "que Inès" → "qu’Inès" (names beginning
    with a vowel; h and y are left alone: "de Hugo", "de Yann").

    >>> french_elisions("la sortie de Amélie, le chevalet de Inès et de Zoé")
    'la sortie d’Amélie, le chevalet d’Inès et de Zoé'
    """
    return _ELIDED.sub(lambda m: m.group(1)[:-1] + "’", text)
