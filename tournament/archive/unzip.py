"""A ``records.zip`` read within limits: what the import holds in memory is bounded by what it
reads, never by what the archive says of itself.

- **Entries**: the archive's central directory (the list of its entries) is measured from its
  end record before it is read (``MAX_ENTRIES``, ``MAX_DIRECTORY_BYTES``): a small upload
  listing millions of entries is refused before they are listed.
- **Bytes actually read**: an entry is unpacked piece by piece (``CHUNK_BYTES``) and the pieces
  counted as they come, whatever size the archive declares for it: past its own limit (a
  match record ``MAX_RECORD_BYTES``, the manifest or the index ``MAX_MANIFEST_BYTES``) or past
  ``MAX_UNPACKED_BYTES`` for the whole import, the reading stops there. An entry whose
  declared size is already past its limit is refused before it is unpacked.
- **Only what is needed**: the manifest (or the index), then the records it names; any other
  entry is never unpacked.
- **JSON measured before it is parsed**: the manifest's objects and lists are counted and
  their nesting measured on its text (``json_shape_check``): ten million empty objects are
  refused at the first container past ``MAX_JSON_CONTAINERS``, not parsed into memory.

Every refusal is a ``ValidationError`` keyed ``archive`` (:func:`archive_error`), with a
code: ``archive-unreadable``, ``archive-too-large``.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from typing import BinaryIO

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

#: Entries in one archive, at most: a match a record, plus the index and the manifest (the
#: largest tournament has some 2,600 matches).
MAX_ENTRIES = 20_000
#: The central directory (the list of entries), at most: some 100 bytes an entry.
MAX_DIRECTORY_BYTES = MAX_ENTRIES * 128
#: Every entry read, together, at most (bytes actually unpacked): the largest tournament's
#: records take some 40 MB.
MAX_UNPACKED_BYTES = 64 * 1024 * 1024
#: One match record, at most: a whole match takes about 14 KB, a very long one 300 KB.
MAX_RECORD_BYTES = 4 * 1024 * 1024
#: The manifest or the index, at most: the largest tournament's manifest takes about 1 MB.
MAX_MANIFEST_BYTES = 8 * 1024 * 1024
#: Objects and lists in the manifest, at most (the largest tournament's has some 15,000).
MAX_JSON_CONTAINERS = 200_000
#: How deep the manifest's objects and lists nest, at most (it uses five levels).
MAX_JSON_DEPTH = 32
#: What one read of an entry unpacks, at most.
CHUNK_BYTES = 64 * 1024

#: The zip's end record: its signature, and where its fields are.
_END_SIGNATURE = b"PK\x05\x06"
_END_SIZE = 22
_END_MAX_COMMENT = 0xFFFF


def archive_error(message: str, code: str = "archive") -> ValidationError:
    return ValidationError({"archive": ValidationError(message, code=code)})


def unreadable() -> ValidationError:
    return archive_error(
        _("This file is not a readable ZIP archive of match records (records.zip)."),
        "archive-unreadable")


def too_large() -> ValidationError:
    return archive_error(_("This archive is too large to import."), "archive-too-large")


#: What zipfile and zlib raise on a damaged archive.
ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError,
              NotImplementedError, ValueError, struct.error)


def _directory_size(source: BinaryIO) -> tuple[int, int]:
    """(entries, bytes) of the central directory, as the end record says, read from the last
    bytes of the file alone."""
    source.seek(0, io.SEEK_END)
    size = source.tell()
    tail = min(size, _END_SIZE + _END_MAX_COMMENT)
    source.seek(size - tail)
    data = source.read(tail)
    at = data.rfind(_END_SIGNATURE)
    if at < 0 or len(data) - at < _END_SIZE:
        raise unreadable()
    _sig, _disk, _start, _here, entries, directory, _offset, _comment = struct.unpack(
        "<4s4H2LH", data[at:at + _END_SIZE])
    return entries, directory


class BoundedZip:
    """An archive opened for the import: its entries listed within limits, each read within
    its own limit and all of them within ``MAX_UNPACKED_BYTES`` (see the module)."""

    def __init__(self, source: bytes | BinaryIO) -> None:
        self.source = io.BytesIO(source) if isinstance(source, bytes | bytearray) else source
        self.read_bytes = 0
        try:
            entries, directory = _directory_size(self.source)
            # 0xFFFF entries: a ZIP64 archive, which counts them elsewhere: more than enough.
            if entries > MAX_ENTRIES or directory > MAX_DIRECTORY_BYTES:
                raise too_large()
            self.source.seek(0)
            self.zip = zipfile.ZipFile(self.source)
            infos = self.zip.infolist()
        except ValidationError:
            raise
        except ZIP_ERRORS:
            raise unreadable() from None
        if len(infos) > MAX_ENTRIES:
            raise too_large()
        self.entries = {info.filename: info for info in infos if not info.is_dir()}

    def __contains__(self, name: str) -> bool:
        return name in self.entries

    def read(self, name: str, *, limit: int) -> bytes:
        """The entry's bytes, read piece by piece; refused (``archive-too-large``) at the
        first piece past ``limit`` or past the import's ``MAX_UNPACKED_BYTES``."""
        return b"".join(self.pieces(name, limit=limit))

    def pieces(self, name: str, *, limit: int):
        """The entry's bytes as they are unpacked (``CHUNK_BYTES`` at a time), within limits."""
        info = self.entries[name]
        if info.file_size > limit or self.read_bytes + info.file_size > MAX_UNPACKED_BYTES:
            raise too_large()
        size = 0
        try:
            with self.zip.open(info) as stream:
                while piece := stream.read(CHUNK_BYTES):
                    size += len(piece)
                    self.read_bytes += len(piece)
                    if size > limit or self.read_bytes > MAX_UNPACKED_BYTES:
                        raise too_large()
                    yield piece
        except ValidationError:
            raise
        except ZIP_ERRORS:
            raise unreadable() from None


#: A JSON text's strings (skipped) and brackets (counted), as bytes.
_JSON_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]', re.DOTALL)


def json_shape_check(data: bytes, *, source: str, max_containers: int = MAX_JSON_CONTAINERS,
                     max_depth: int = MAX_JSON_DEPTH) -> None:
    """Refuse a JSON text with more objects and lists than ``max_containers``, or nested
    deeper than ``max_depth``, at the first one past the limit, before it is parsed (parsing
    would build them all in memory first)."""
    containers = depth = 0
    for token in _JSON_TOKENS.finditer(data):
        bracket = token.group()
        if bracket in (b"[", b"{"):
            containers += 1
            depth += 1
            if containers > max_containers or depth > max_depth:
                raise archive_error(
                    _("%(source)s holds too many objects or lists, or nests them too deeply.")
                    % {"source": source}, "archive-too-large")
        elif bracket in (b"]", b"}"):
            depth -= 1
