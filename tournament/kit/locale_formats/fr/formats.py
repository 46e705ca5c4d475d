"""French dates and times as French writes them: "15 h 55", "1 avril 2027 à 15 h 55" (Django's
own French formats write "15:55"). The no-break spaces keep "15 h 55" on one line.
(``tournament.kit.formats`` makes the first of the month "1er".)"""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H\u00a0\\h\u00a0i"
DATETIME_FORMAT = "j F Y à H\u00a0\\h\u00a0i"
SHORT_DATETIME_FORMAT = "d/m/Y H\u00a0\\h\u00a0i"
