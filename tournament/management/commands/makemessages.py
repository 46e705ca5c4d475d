"""``makemessages`` that also collects the engine's messages (scoring/messages.py): its
problems and the reasons a record cannot be read.

The engine marks them with ``N_`` (it cannot import Django); this command adds that keyword
and scans ``scoring/messages.py`` even when ``--ignore "scoring/*"`` leaves the rest of the
engine out, so that the referee reads the engine's verdicts, and why an uploaded record was
refused, in French.
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core.management.commands import makemessages

ENGINE_MESSAGES = os.path.join("scoring", "messages.py")


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]

    def find_files(self, root):
        files = super().find_files(root)
        path = os.path.join(root, ENGINE_MESSAGES)
        if os.path.isfile(path) and not any(
            os.path.normpath(os.path.join(f.dirpath, f.file)) == os.path.normpath(path)
            for f in files
        ):
            locale_dir = str(settings.LOCALE_PATHS[0])
            files.append(
                self.translatable_file_class(os.path.dirname(path), os.path.basename(path), locale_dir)
            )
        return sorted(files)
